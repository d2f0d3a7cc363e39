-- The freezer: once a package has loaded, what it built becomes read-only,
-- so no rule keeps state between calls and every game starts from the same
-- script state (src/script/freeze.rs says why, and
-- covers the other half: locals of returned functions, in the bytecode).
--
-- Two kinds of read-only, because reads must stay fast:
-- * locked: the globals and the host's own tables (the API and the standard
--   libraries). Emptied into a hidden backing table that their metatable
--   reads through, so every write, to any key, fails at once with the
--   script's file and line.
-- * sealed: everything else the package built (rules, phases, module
--   tables, `tables`, tables held by upvalues). Their contents stay in
--   place, so scripts read them at full speed; adding a key fails at once,
--   and a change to an existing key (which Lua cannot intercept) is found
--   by `check`, which the host runs between games: it compares every
--   sealed table with its snapshot, puts back what changed, and names it.
--
-- Runs in the sandbox before the prelude, so it captures the stock
-- functions; it replaces `rawget`, `rawset`, `rawlen` and `next` with
-- versions that see through locked tables and refuse to write read-only ones.
local raw_getmetatable, inspect = ...
local raw_next, raw_get, raw_set, raw_len, raw_setmetatable = next, rawget, rawset, rawlen, setmetatable
local type, error, tostring, format = type, error, tostring, string.format
local G = _G

-- Each locked table's contents; each sealed table's snapshot, entry count
-- and path (for messages); the tables that hold game state.
local backing_of, snapshot, count, path_of, holds_state = {}, {}, {}, {}, {}

local function refuse(t, k)
  local what = type(k) == "string" and format("%q", k) or tostring(k)
  error(format("cannot set %s%s: the rules' tables and globals are read-only once the package "
    .. "has loaded, so that no rule keeps state between calls (saves, undo and bots see only the game state); keep what "
    .. "a rule must remember in the game state (vars.set, pieces.set_attr, frame.ctx)",
    t == G and "global " or "field ", what), 2)
end

-- A metatable for a read-only table: `mt`'s metamethods (the original
-- metatable, which `getmetatable` still shows), writes refused.
local function guard(mt)
  local guarded = {}
  if mt then
    for k, v in raw_next, backing_of[mt] or mt do
      guarded[k] = v
    end
  end
  guarded.__newindex, guarded.__metatable = refuse, mt or false
  return guarded
end

local function lock(t)
  local b = {}
  for k, v in raw_next, t do
    b[k] = v
  end
  for k in raw_next, b do
    raw_set(t, k, nil)
  end
  local mt = guard(raw_getmetatable(t))
  mt.__index = b
  mt.__len = function()
    return raw_len(b)
  end
  -- An iterator of its own, so `pairs` never hands the contents out.
  local function locked_next(_, k)
    return raw_next(b, k)
  end
  mt.__pairs = function(self)
    return locked_next, self, nil
  end
  backing_of[t] = b
  raw_setmetatable(t, mt)
end

local function seal(t, path)
  local copy, n = {}, 0
  for k, v in raw_next, t do
    copy[k] = v
    n = n + 1
  end
  snapshot[t], count[t], path_of[t] = copy, n, path
  raw_setmetatable(t, guard(raw_getmetatable(t)))
end

-- `path` followed by key `k`, as Lua would write it: `tables.contact`,
-- `rules["a b"]`, `list[3]`; a key of the root is written alone.
local function join(path, k)
  local ident = type(k) == "string" and k:match("^[%a_][%w_]*$")
  if path == "" then
    return ident and k or ("[" .. (type(k) == "string" and format("%q", k) or tostring(k)) .. "]")
  end
  return path .. (ident and ("." .. k) or ("[" .. (type(k) == "string" and format("%q", k) or tostring(k)) .. "]"))
end

-- Makes `root` and everything reachable from it read-only: table keys,
-- values and metatables, and the upvalues of Lua functions (after
-- `inspect` checked that the function writes none that outlives a call).
-- Tables in `locked` are locked, the rest sealed. `name` names `root`.
-- Tables in `proxies` are the host's own empty tables whose hidden
-- metatable does the reading and writing (`vars.game`): they are left as
-- they are, with nothing behind them for `rawget`, `rawset` or `next`.
-- Tables in `state` hold game state that the host takes back after every
-- call (`vars.sheet`): they stay writable, but not by `rawset`, which
-- would pass their `__newindex` and add a key the host never takes back.
local function freeze(root, name, locked, proxies, state)
  local is_locked, seen = {}, { [backing_of] = true, [snapshot] = true, [count] = true, [path_of] = true,
    [holds_state] = true }
  for _, t in raw_next, state do
    seen[t], holds_state[t] = true, true
  end
  for _, t in raw_next, locked do
    is_locked[t] = true
  end
  for _, t in raw_next, proxies do
    -- A key put in with `rawset` while loading would hide what the
    -- metatable reads.
    for k in raw_next, t do
      raw_set(t, k, nil)
    end
    backing_of[t] = backing_of[t] or {}
  end
  local queue, paths, i = { root }, { name }, 1
  while i <= #queue do
    local v, path = queue[i], paths[i]
    i = i + 1
    local kind = type(v)
    local frozen = snapshot[v] or backing_of[v]
    if (kind == "table" or kind == "function" or kind == "thread") and not seen[v] and not frozen then
      seen[v] = true
      if kind == "table" then
        local mt = raw_getmetatable(v)
        for k, x in raw_next, v do
          queue[#queue + 1], paths[#paths + 1] = k, join(path, "(a key)")
          queue[#queue + 1], paths[#paths + 1] = x, join(path, k)
        end
        if mt then
          queue[#queue + 1], paths[#paths + 1] = mt, "the metatable of " .. path
        end
        if is_locked[v] then
          lock(v)
        else
          seal(v, path)
        end
      elseif kind == "function" then
        for _, up in raw_next, inspect(v) do
          queue[#queue + 1], paths[#paths + 1] = up, "a table held by a function of " .. path
        end
      else
        error(format("%s is a coroutine made while the package loads: it would keep its place "
          .. "from one call to the next; create coroutines inside the rule functions that use them",
          path), 0)
      end
    end
  end
end

local function same(a, b)
  return a == b or (a ~= a and b ~= b)
end

-- Puts a sealed table back as it was when sealed.
local function restore(t)
  local copy = snapshot[t]
  for k in raw_next, t do
    if raw_get(copy, k) == nil then
      raw_set(t, k, nil)
    end
  end
  for k, v in raw_next, copy do
    raw_set(t, k, v)
  end
end

-- Compares every sealed table with its snapshot; restores the ones that
-- changed and returns a description of the first change, or nil.
local function check()
  local found
  for t, copy in raw_next, snapshot do
    local n, changed = 0, nil
    for k, v in raw_next, t do
      n = n + 1
      if not same(raw_get(copy, k), v) then
        changed = k
        break
      end
    end
    if changed == nil and n ~= count[t] then
      for k in raw_next, copy do
        if raw_get(t, k) == nil then
          changed = k
          break
        end
      end
    end
    if changed ~= nil then
      found = found or format("%s was %s during a game (it was %s when the package loaded)",
        join(path_of[t], changed), raw_get(t, changed) == nil and "removed" or "changed",
        tostring(raw_get(copy, changed)))
      restore(t)
    end
  end
  return found
end

function rawget(t, k)
  return raw_get(backing_of[t] or t, k)
end

function rawset(t, k, v)
  if backing_of[t] or snapshot[t] then
    refuse(t, k)
  end
  if holds_state[t] then
    error("rawset cannot write vars.sheet: write a slot as sheet[slot] = value", 2)
  end
  return raw_set(t, k, v)
end

function rawlen(v)
  if holds_state[v] then
    error("vars.sheet has no length (its slots may hold nil): walk the slots vars.slots gave", 2)
  end
  return raw_len(backing_of[v] or v)
end

function next(t, k)
  return raw_next(backing_of[t] or t, k)
end

return freeze, check
