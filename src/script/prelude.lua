-- The sandbox prelude: runs once in every rules package's Lua state, before
-- any package code, to replace the few base functions that could escape the
-- sandbox or its time budget (see src/script/sandbox.rs and budget.rs).
-- Scripts cannot reach the originals: they live only in these upvalues and
-- the debug library is not loaded.
local tracked_resume, guarded_close, stopped, forbid = ...

local raw_load, raw_setmetatable, raw_xpcall = load, setmetatable, xpcall
local type, rawget, error = type, rawget, error
local byte = string.byte
local create, status = coroutine.create, coroutine.status

-- Text chunks only: Lua does not verify bytecode, and bad bytecode can
-- crash the host. Without an explicit env the chunk sees the package's
-- globals, as with stock load.
function load(chunk, chunkname, _mode, ...)
  if type(chunk) == "string" and byte(chunk, 1) == 27 then
    forbid("a binary (precompiled) chunk", 2)
  end
  return raw_load(chunk, chunkname, "t", ...)
end

-- Lua runs finalizers with debug hooks off, so the time budget could not
-- stop a loop inside one. Lua only arms a finalizer when the metatable
-- already has a __gc field at this call, so checking here is enough.
function setmetatable(t, mt)
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    forbid("a __gc metamethod (finalizers cannot be stopped by the time budget)", 2)
  end
  return raw_setmetatable(t, mt)
end

-- The error that stops a runaway script is raised from inside a debug
-- hook, and Lua calls the message handler for it before hooks are back on:
-- a handler that loops there could never be stopped. So once the call is
-- stopped, handlers are skipped and the stop error passes through as is.
function xpcall(f, msgh, ...)
  if type(msgh) ~= "function" then
    error("bad argument #2 to 'xpcall' (function expected, got " .. type(msgh) .. ")", 2)
  end
  return raw_xpcall(f, function(err)
    if stopped() then
      return err
    end
    return msgh(err)
  end, ...)
end

-- Formatting an error value (tostring, and the host's traceback handler,
-- which also runs with hooks off) calls a __tostring metamethod even on
-- strings. Locking the string metatable keeps scripts from adding one.
getmetatable("").__metatable = false

coroutine.resume = tracked_resume
coroutine.close = guarded_close

-- Stock wrap resumes from C, out of the budget's sight, so wrap is rebuilt
-- on the tracked resume. Like stock wrap, it closes a coroutine that died
-- of an error and re-raises that error.
local function wrap_result(co, ok, ...)
  if ok then
    return ...
  end
  local err = ...
  if status(co) == "dead" then
    local _, close_err = guarded_close(co)
    if close_err ~= nil then
      err = close_err
    end
  end
  error(err, 0)
end

function coroutine.wrap(f)
  local co = create(f)
  return function(...)
    return wrap_result(co, tracked_resume(co, ...))
  end
end

-- The C loops of the standard library run without the budget's hook, so
-- the ones whose length a script sets freely are bounded here (the others
-- are bounded by the memory limit, or call Lua code the hook reaches).
-- `string.rep` of the empty string makes nothing, however many times.
local rep, math_type = string.rep, math.type
function string.rep(s, n, sep)
  if s == "" and (sep == nil or sep == "") and math_type(n) then
    return ""
  end
  return rep(s, n, sep)
end

-- `table.move` walks its whole range even where the table holds nothing.
local move = table.move
local MOVE_LIMIT = 1 << 22
function table.move(a1, f, e, t, a2)
  if math_type(f) and math_type(e) and e - f >= MOVE_LIMIT then
    error("table.move: " .. (e - f + 1) .. " elements is more than a rules script may move at once (" .. MOVE_LIMIT .. ")", 2)
  end
  return move(a1, f, e, t, a2)
end
