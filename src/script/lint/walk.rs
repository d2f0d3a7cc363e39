//! One walk over a file's syntax tree, following Lua's scoping rules, that
//! gathers the [`FileFacts`]: a name is local from the statement after its
//! `local` (a `local function` sees itself), parameters and loop variables
//! are local to their body, and every other name is a global.
//!
//! The walk follows where a table can be known: a local holding a table
//! constructor, a `require`d module, or a global table (`dice`). A local
//! table that goes anywhere the walk cannot follow (an argument, `t[k]`,
//! a new value) is marked open, and its fields are not checked: the check
//! reports only what is certainly wrong.

use super::facts::{At, FieldUse, FileFacts, GlobalWrite, LocalTable, Target};
use full_moon::ast::{
    Block, Call, Expression, Field, FunctionArgs, FunctionBody, Index, LastStmt, Parameter, Prefix,
    Stmt, Suffix, TableConstructor, Var,
};
use full_moon::tokenizer::{TokenReference, TokenType};

/// Walks a parsed file.
pub fn facts(block: &Block) -> FileFacts {
    let mut walk = Walk {
        facts: FileFacts::default(),
        scopes: vec![Vec::new()],
        depth: 0,
    };
    walk.statements(block, true);
    walk.facts
}

/// What a local name holds, as far as the walk knows.
type Binding = (String, Option<Target>);

struct Walk {
    facts: FileFacts,
    /// Local names in scope, innermost last; a later one shadows.
    scopes: Vec<Vec<Binding>>,
    /// How many function bodies enclose the code walked.
    depth: usize,
}

fn name_of(token: &TokenReference) -> String {
    token.token().to_string()
}

fn at(token: &TokenReference) -> At {
    let p = token.token().start_position();
    (p.line(), p.character())
}

/// The text of a string literal token, without its quotes.
fn string_literal(token: &TokenReference) -> Option<String> {
    match token.token().token_type() {
        TokenType::StringLiteral { literal, .. } => Some(literal.to_string()),
        _ => None,
    }
}

/// The module name of a `require("lib.x")` call's arguments.
fn required_module(args: &FunctionArgs) -> Option<String> {
    match args {
        FunctionArgs::String(token) => string_literal(token),
        FunctionArgs::Parentheses { arguments, .. } if arguments.len() == 1 => {
            match arguments.iter().next()? {
                Expression::String(token) => string_literal(token),
                _ => None,
            }
        }
        _ => None,
    }
}

impl Walk {
    fn lookup(&self, name: &str) -> Option<&Option<Target>> {
        self.scopes
            .iter()
            .rev()
            .find_map(|scope| scope.iter().rev().find(|(n, _)| n == name))
            .map(|(_, target)| target)
    }

    fn declare(&mut self, name: String, target: Option<Target>) {
        if name == "_ENV" {
            self.facts.uses_env = true;
        }
        self.scopes
            .last_mut()
            .expect("the file's scope is never closed")
            .push((name, target));
    }

    /// A local table went where the walk cannot follow it.
    fn escape(&mut self, target: Option<Target>) {
        if let Some(Target::Local(id)) = target {
            self.facts.tables[id].open = true;
        }
    }

    /// Walks a table constructor; returns the table's index in
    /// [`FileFacts::tables`], with the keys the constructor names.
    fn table(&mut self, t: &TableConstructor) -> usize {
        let mut table = LocalTable::default();
        for field in t.fields() {
            match field {
                Field::NameKey { key, value, .. } => {
                    table.keys.insert(name_of(key));
                    self.expression(value);
                }
                Field::ExpressionKey { key, value, .. } => {
                    match key.as_ref() {
                        Expression::String(s) => {
                            table.keys.extend(string_literal(s));
                        }
                        other => {
                            table.open = true;
                            self.expression(other);
                        }
                    }
                    self.expression(value);
                }
                Field::NoKey(value) => self.expression(value),
                _ => {}
            }
        }
        self.facts.tables.push(table);
        self.facts.tables.len() - 1
    }

    /// A name read as a value (`f(x)`, `return x`).
    fn read_name(&mut self, token: &TokenReference) {
        let name = name_of(token);
        match self.lookup(&name).cloned() {
            Some(target) => self.escape(target),
            None => self.read_global(name, at(token)),
        }
    }

    fn read_global(&mut self, name: String, at: At) {
        self.facts.uses_env |= name == "_ENV";
        self.facts.global_reads.push((name, at));
    }

    /// A name assigned a new value (`x = 1`, `function x() end`).
    fn write_name(&mut self, token: &TokenReference) {
        let name = name_of(token);
        match self.lookup(&name).cloned() {
            Some(target) => self.escape(target),
            None => self.facts.global_writes.push(GlobalWrite {
                name,
                at: at(token),
                in_function: self.depth > 0,
            }),
        }
    }

    /// The table a name stands for at the head of `name.field`.
    fn base(&mut self, token: &TokenReference) -> Option<Target> {
        let name = name_of(token);
        match self.lookup(&name) {
            Some(target) => target.clone(),
            None => {
                self.read_global(name.clone(), at(token));
                Some(Target::Api(name))
            }
        }
    }

    fn field(&mut self, target: Option<Target>, name: &TokenReference, written: bool) {
        let Some(target) = target else { return };
        let field = FieldUse {
            target,
            field: name_of(name),
            at: at(name),
        };
        match (&field.target, written) {
            (Target::Local(id), true) => {
                self.facts.tables[*id].keys.insert(field.field);
            }
            (Target::Module(_), true) => self.facts.module_writes.push(field),
            (Target::Api(_), true) => {}
            (_, false) => self.facts.field_reads.push(field),
        }
    }

    fn statements(&mut self, block: &Block, file_level: bool) {
        for stmt in block.stmts() {
            self.statement(stmt);
        }
        if let Some(LastStmt::Return(ret)) = block.last_stmt() {
            let returns: Vec<&Expression> = ret.returns().iter().collect();
            if let ([only], true) = (returns.as_slice(), file_level) {
                if let Some(Target::Local(id)) = self.value(only) {
                    self.facts.returns = Some(id);
                }
                return;
            }
            for e in returns {
                self.expression(e);
            }
        }
    }

    fn block(&mut self, block: &Block) {
        self.scopes.push(Vec::new());
        self.statements(block, false);
        self.scopes.pop();
    }

    fn statement(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::LocalAssignment(local) => {
                let values: Vec<&Expression> = local.expressions().iter().collect();
                let mut targets = Vec::new();
                for (i, e) in values.iter().enumerate() {
                    match i < local.names().len() {
                        true => targets.push(self.value(e)),
                        false => self.expression(e),
                    }
                }
                for (i, name) in local.names().iter().enumerate() {
                    let target = targets.get(i).cloned().flatten();
                    self.declare(name_of(name), target);
                }
            }
            Stmt::LocalFunction(f) => {
                self.declare(name_of(f.name()), None);
                self.function(f.body(), false);
            }
            Stmt::FunctionDeclaration(f) => {
                let names: Vec<&TokenReference> = f.name().names().iter().collect();
                let method = f.name().method_name();
                match (names.as_slice(), method) {
                    ([only], None) => self.write_name(only),
                    ([head, rest @ ..], _) => {
                        let mut target = self.base(head);
                        let fields = rest.iter().copied().chain(method);
                        let count = rest.len() + usize::from(method.is_some());
                        for (i, name) in fields.enumerate() {
                            self.field(target.take(), name, i + 1 == count);
                        }
                    }
                    ([], _) => {}
                }
                self.function(f.body(), method.is_some());
            }
            Stmt::Assignment(assign) => {
                for e in assign.expressions() {
                    self.expression(e);
                }
                for var in assign.variables() {
                    match var {
                        Var::Name(token) => self.write_name(token),
                        Var::Expression(v) => {
                            let suffixes: Vec<&Suffix> = v.suffixes().collect();
                            self.chain(v.prefix(), &suffixes, true);
                        }
                        _ => {}
                    }
                }
            }
            Stmt::FunctionCall(call) => {
                let suffixes: Vec<&Suffix> = call.suffixes().collect();
                self.chain(call.prefix(), &suffixes, false);
            }
            Stmt::Do(d) => self.block(d.block()),
            Stmt::While(w) => {
                self.expression(w.condition());
                self.block(w.block());
            }
            Stmt::Repeat(r) => {
                // The condition sees the body's locals.
                self.scopes.push(Vec::new());
                self.statements(r.block(), false);
                self.expression(r.until());
                self.scopes.pop();
            }
            Stmt::If(i) => {
                self.expression(i.condition());
                self.block(i.block());
                for elseif in i.else_if().into_iter().flatten() {
                    self.expression(elseif.condition());
                    self.block(elseif.block());
                }
                if let Some(b) = i.else_block() {
                    self.block(b);
                }
            }
            Stmt::NumericFor(f) => {
                for e in [Some(f.start()), Some(f.end()), f.step()]
                    .into_iter()
                    .flatten()
                {
                    self.expression(e);
                }
                self.scopes.push(vec![(name_of(f.index_variable()), None)]);
                self.block(f.block());
                self.scopes.pop();
            }
            Stmt::GenericFor(f) => {
                for e in f.expressions() {
                    self.expression(e);
                }
                self.scopes
                    .push(f.names().iter().map(|n| (name_of(n), None)).collect());
                self.block(f.block());
                self.scopes.pop();
            }
            _ => {}
        }
    }

    /// A function body: its parameters (and `self` for a method) are
    /// locals of its own scope.
    fn function(&mut self, body: &FunctionBody, method: bool) {
        self.depth += 1;
        let mut scope: Vec<Binding> = Vec::new();
        if method {
            scope.push(("self".to_owned(), None));
        }
        for p in body.parameters() {
            if let Parameter::Name(token) = p {
                scope.push((name_of(token), None));
            }
        }
        self.scopes.push(scope);
        self.statements(body.block(), false);
        self.scopes.pop();
        self.depth -= 1;
    }

    /// Walks a value kept in a local (or returned by the file), and says
    /// which table it is, if the walk can know.
    fn value(&mut self, e: &Expression) -> Option<Target> {
        match e {
            Expression::TableConstructor(t) => Some(Target::Local(self.table(t))),
            Expression::Var(Var::Name(token)) => {
                let name = name_of(token);
                match self.lookup(&name).cloned() {
                    Some(target) => target,
                    None => {
                        self.read_global(name.clone(), at(token));
                        Some(Target::Api(name))
                    }
                }
            }
            Expression::FunctionCall(call) => {
                let suffixes: Vec<&Suffix> = call.suffixes().collect();
                match (call.prefix(), suffixes.as_slice()) {
                    (Prefix::Name(token), [Suffix::Call(Call::AnonymousCall(args))])
                        if name_of(token) == "require" && self.lookup("require").is_none() =>
                    {
                        self.read_global("require".to_owned(), at(token));
                        required_module(args).map(Target::Module)
                    }
                    _ => {
                        self.chain(call.prefix(), &suffixes, false);
                        None
                    }
                }
            }
            other => {
                self.expression(other);
                None
            }
        }
    }

    fn expression(&mut self, e: &Expression) {
        match e {
            Expression::BinaryOperator { lhs, rhs, .. } => {
                self.expression(lhs);
                self.expression(rhs);
            }
            Expression::Parentheses { expression, .. }
            | Expression::UnaryOperator { expression, .. } => self.expression(expression),
            Expression::Function(f) => self.function(f.body(), false),
            Expression::FunctionCall(call) => {
                let suffixes: Vec<&Suffix> = call.suffixes().collect();
                self.chain(call.prefix(), &suffixes, false);
            }
            Expression::TableConstructor(t) => {
                self.table(t);
            }
            Expression::Var(Var::Name(token)) => self.read_name(token),
            Expression::Var(Var::Expression(v)) => {
                let suffixes: Vec<&Suffix> = v.suffixes().collect();
                self.chain(v.prefix(), &suffixes, false);
            }
            _ => {}
        }
    }

    fn arguments(&mut self, args: &FunctionArgs) {
        match args {
            FunctionArgs::Parentheses { arguments, .. } => {
                for e in arguments {
                    self.expression(e);
                }
            }
            FunctionArgs::TableConstructor(t) => {
                self.table(t);
            }
            _ => {}
        }
    }

    /// `prefix` followed by indexes and calls (`a.b[c]:d(e)`); when
    /// `assigned`, the last index is the place a value is written to.
    fn chain(&mut self, prefix: &Prefix, suffixes: &[&Suffix], assigned: bool) {
        let mut current = match prefix {
            Prefix::Name(token) => {
                let required = name_of(token) == "require" && self.lookup("require").is_none();
                match suffixes.first() {
                    Some(Suffix::Call(Call::AnonymousCall(args))) if required => {
                        self.read_global("require".to_owned(), at(token));
                        return self.chain_from(
                            required_module(args).map(Target::Module),
                            &suffixes[1..],
                            assigned,
                        );
                    }
                    _ => self.base(token),
                }
            }
            Prefix::Expression(e) => {
                self.expression(e);
                None
            }
            _ => None,
        };
        if suffixes.is_empty() {
            self.escape(current.take());
        }
        self.chain_from(current, suffixes, assigned);
    }

    fn chain_from(&mut self, mut current: Option<Target>, suffixes: &[&Suffix], assigned: bool) {
        for (i, suffix) in suffixes.iter().enumerate() {
            let written = assigned && i + 1 == suffixes.len();
            match suffix {
                Suffix::Index(Index::Dot { name, .. }) => {
                    self.field(current.take(), name, written);
                }
                Suffix::Index(Index::Brackets { expression, .. }) => {
                    self.escape(current.take());
                    self.expression(expression);
                }
                Suffix::Call(Call::MethodCall(m)) => {
                    self.field(current.take(), m.name(), false);
                    self.arguments(m.args());
                }
                Suffix::Call(Call::AnonymousCall(args)) => {
                    self.escape(current.take());
                    self.arguments(args);
                }
                _ => {}
            }
        }
    }
}
