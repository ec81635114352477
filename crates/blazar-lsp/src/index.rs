//! The names of one parsed file: where each is defined, where it is used, and the scopes
//! that decide which definition a use means.
//!
//! Built from the AST alone, so it works while the file has syntax errors (the parser
//! recovers statement by statement). Quasar scopes variables by function: every
//! assignment in a function body assigns the same variable, the first one in the text is
//! its definition, and nested functions and lambdas see the names of the functions around
//! them. Top-level functions are visible in the whole file.

use blazar_syntax::{
    printer, AssignOp, Block, Expr, ExprKind, FnKind, Function, LambdaBody, Param, Program, Span,
    Stmt, StmtKind, TypeDef,
};
use std::collections::HashMap;

pub type DefId = usize;
pub type ScopeId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefKind {
    Function,
    Variable,
    Parameter,
    Output,
    Class,
    TypeAlias,
    Field,
    Macro,
}

/// One definition: a function, variable, parameter, type or class field.
#[derive(Clone, Debug)]
pub struct Def {
    pub name: String,
    pub kind: DefKind,
    /// The name where it is defined (a variable's first assignment).
    pub span: Span,
    /// The whole definition (a function from `function` to `end`).
    pub full: Span,
    /// For a function: the scope of its body; for a class: its fields' scope.
    pub inner: Option<ScopeId>,
    /// The type as written (`mat`, `[int -> int]`), or a function's signature.
    pub detail: Option<String>,
    /// Every place that assigns it (its definition included), for type inference.
    pub sites: Vec<Span>,
    /// A function's parameters as written (`x : mat`, `n = 3`), for signature help.
    pub params: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Scope {
    pub parent: Option<ScopeId>,
    pub span: Span,
    pub defs: Vec<DefId>,
    /// The same definitions by name (the first of each name).
    names: HashMap<String, DefId>,
}

/// A use of a name (a definition site counts as a use of what it defines).
#[derive(Clone, Debug)]
pub struct Use {
    pub name: String,
    pub span: Span,
    pub def: Option<DefId>,
    /// `a.name`: a field of a value, not a variable.
    pub field: bool,
}

/// `import "file.q"`: the statement and the file as written.
#[derive(Clone, Debug)]
pub struct ImportStmt {
    pub file: String,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Index {
    pub defs: Vec<Def>,
    pub scopes: Vec<Scope>,
    /// Sorted by position.
    pub uses: Vec<Use>,
    pub imports: Vec<ImportStmt>,
    /// Top-level definitions in source order (document symbols).
    pub top: Vec<DefId>,
}

impl Index {
    pub fn build(p: &Program, whole: Span) -> Index {
        let mut b = Builder {
            ix: Index::default(),
            pending: Vec::new(),
        };
        let root = b.scope(None, whole);
        b.block(&p.stmts, root, true);
        // Resolve every use now that every scope knows its definitions.
        for (u, at) in std::mem::take(&mut b.pending) {
            let def = if u.field {
                None
            } else {
                b.ix.lookup(&u.name, at)
            };
            b.ix.uses.push(Use { def, ..u });
        }
        b.ix.uses.sort_by_key(|u| (u.span.lo, u.span.hi));
        b.ix
    }

    /// The definition `name` means in scope `at` (looking outwards).
    pub fn lookup(&self, name: &str, at: ScopeId) -> Option<DefId> {
        let mut s = Some(at);
        while let Some(id) = s {
            let scope = &self.scopes[id];
            if let Some(&d) = scope.names.get(name) {
                if self.defs[d].kind != DefKind::Field {
                    return Some(d);
                }
            }
            s = scope.parent;
        }
        None
    }

    /// The use whose name covers byte `offset` (or ends right at it).
    pub fn use_at(&self, offset: u32) -> Option<&Use> {
        let i = self.uses.partition_point(|u| u.span.lo <= offset);
        self.uses[..i]
            .iter()
            .rev()
            .take(4)
            .find(|u| u.span.lo <= offset && offset <= u.span.hi)
    }

    /// The innermost scope containing byte `offset`.
    pub fn scope_at(&self, offset: u32) -> ScopeId {
        let mut best = 0;
        for (i, s) in self.scopes.iter().enumerate() {
            let inside = s.span.lo <= offset && offset <= s.span.hi;
            let narrower =
                s.span.hi - s.span.lo <= self.scopes[best].span.hi - self.scopes[best].span.lo;
            if inside && narrower {
                best = i;
            }
        }
        best
    }

    /// Every definition visible from scope `at`, innermost first, shadowed names once.
    pub fn visible(&self, at: ScopeId) -> Vec<DefId> {
        let mut out: Vec<DefId> = Vec::new();
        let mut s = Some(at);
        while let Some(id) = s {
            for &d in &self.scopes[id].defs {
                let def = &self.defs[d];
                if def.kind != DefKind::Field && !out.iter().any(|&o| self.defs[o].name == def.name)
                {
                    out.push(d);
                }
            }
            s = self.scopes[id].parent;
        }
        out
    }

    /// The fields of class `name`, if the file defines it.
    pub fn fields_of(&self, class: &str) -> Vec<DefId> {
        self.defs
            .iter()
            .position(|d| d.kind == DefKind::Class && d.name == class)
            .and_then(|c| self.defs[c].inner)
            .map(|s| self.scopes[s].defs.clone())
            .unwrap_or_default()
    }
}

struct Builder {
    ix: Index,
    /// Uses found during the walk, resolved once every definition is known.
    pending: Vec<(Use, ScopeId)>,
}

impl Builder {
    fn scope(&mut self, parent: Option<ScopeId>, span: Span) -> ScopeId {
        self.ix.scopes.push(Scope {
            parent,
            span,
            defs: Vec::new(),
            names: HashMap::new(),
        });
        self.ix.scopes.len() - 1
    }

    fn def(&mut self, name: &str, kind: DefKind, span: Span, full: Span, scope: ScopeId) -> DefId {
        let id = self.ix.defs.len();
        self.ix.defs.push(Def {
            name: name.to_string(),
            kind,
            span,
            full,
            inner: None,
            detail: None,
            sites: vec![span],
            params: Vec::new(),
        });
        let sc = &mut self.ix.scopes[scope];
        sc.defs.push(id);
        sc.names.entry(name.to_string()).or_insert(id);
        id
    }

    fn use_(&mut self, name: &str, span: Span, scope: ScopeId, field: bool) {
        let u = Use {
            name: name.to_string(),
            span,
            def: None,
            field,
        };
        self.pending.push((u, scope));
    }

    /// A variable assigned at `span` (its definition if it is the first assignment of
    /// this scope); `site` is what the type map keys it by.
    fn assign(
        &mut self,
        name: &str,
        span: Span,
        site: Span,
        full: Span,
        scope: ScopeId,
        top: bool,
    ) {
        let existing = self.ix.scopes[scope].names.get(name).copied();
        match existing {
            Some(d) => self.ix.defs[d].sites.push(site),
            None => {
                let d = self.def(name, DefKind::Variable, span, full, scope);
                self.ix.defs[d].sites = vec![site];
                if top {
                    self.ix.top.push(d);
                }
            }
        }
        self.use_(name, span, scope, false);
    }

    fn block(&mut self, b: &Block, scope: ScopeId, top: bool) {
        for s in b {
            self.stmt(s, scope, top);
        }
    }

    fn stmt(&mut self, s: &Stmt, scope: ScopeId, top: bool) {
        match &s.kind {
            StmtKind::Expr(e) => self.expr(e, scope),
            StmtKind::Assign {
                targets, op, value, ..
            } => {
                self.expr(value, scope);
                for t in targets {
                    self.target(t, scope, s.span, top, *op);
                }
            }
            StmtKind::Decl { name, ty, value } => {
                if let Some(v) = value {
                    self.expr(v, scope);
                }
                self.assign(&name.name, name.span, name.span, s.span, scope, top);
                if let Some(d) = self.ix.lookup(&name.name, scope) {
                    self.ix.defs[d].detail = Some(printer::print_type(ty));
                }
            }
            StmtKind::Function(f) => self.function(f, scope, top),
            StmtKind::If { arms, otherwise } => {
                for (c, body) in arms {
                    self.expr(c, scope);
                    self.block(body, scope, top);
                }
                if let Some(b) = otherwise {
                    self.block(b, scope, top);
                }
            }
            StmtKind::For {
                var, iter, body, ..
            } => {
                self.expr(iter, scope);
                self.assign(&var.name, var.span, s.span, s.span, scope, top);
                self.block(body, scope, top);
            }
            StmtKind::While { cond, body, .. } | StmtKind::Repeat { body, cond, .. } => {
                self.expr(cond, scope);
                self.block(body, scope, top);
            }
            StmtKind::Match { scrutinee, arms } => {
                self.expr(scrutinee, scope);
                for arm in arms {
                    if let Some(p) = &arm.pattern {
                        self.expr(p, scope);
                    }
                    self.block(&arm.body, scope, top);
                }
            }
            StmtKind::Print(args) => args.iter().for_each(|a| self.expr(a, scope)),
            StmtKind::Import(file) => self.ix.imports.push(ImportStmt {
                file: file.clone(),
                span: s.span,
            }),
            StmtKind::TypeDef { name, def } => {
                let (kind, detail) = match def {
                    TypeDef::Class { mutable, .. } => (
                        DefKind::Class,
                        if *mutable { "mutable class" } else { "class" }.to_string(),
                    ),
                    TypeDef::Alias(t) => (DefKind::TypeAlias, printer::print_type(t)),
                };
                let d = self.def(&name.name, kind, name.span, s.span, scope);
                self.ix.defs[d].detail = Some(detail);
                if top {
                    self.ix.top.push(d);
                }
                if let TypeDef::Class { fields, .. } = def {
                    let inner = self.scope(Some(scope), s.span);
                    self.ix.defs[d].inner = Some(inner);
                    for f in fields {
                        let fd = self.def(
                            &f.name.name,
                            DefKind::Field,
                            f.name.span,
                            f.name.span,
                            inner,
                        );
                        self.ix.defs[fd].detail = f.ty.as_ref().map(printer::print_type);
                    }
                }
            }
            StmtKind::Reduction {
                params,
                pattern,
                replacement,
                cond,
            } => {
                let inner = self.scope(Some(scope), s.span);
                self.params(params, DefKind::Parameter, inner);
                self.stmt(pattern, inner, false);
                self.stmt(replacement, inner, false);
                if let Some(c) = cond {
                    self.expr(c, inner);
                }
            }
            StmtKind::Macro { name, params, body } => {
                let d = self.def(&name.name, DefKind::Macro, name.span, s.span, scope);
                if top {
                    self.ix.top.push(d);
                }
                let inner = self.scope(Some(scope), s.span);
                self.params(params, DefKind::Parameter, inner);
                self.block(body, inner, false);
            }
            StmtKind::Break(_)
            | StmtKind::Continue(_)
            | StmtKind::Return
            | StmtKind::Attribute(_) => {}
        }
    }

    /// An assignment target: `x`, `x[i]`, `x.f`, `[a, b]`.
    fn target(&mut self, t: &Expr, scope: ScopeId, stmt: Span, top: bool, op: AssignOp) {
        match &t.kind {
            ExprKind::Ident(name) if op == AssignOp::Set => {
                self.assign(name, t.span, t.span, stmt, scope, top)
            }
            ExprKind::Typed(inner, ty) => {
                if let ExprKind::Ident(name) = &inner.kind {
                    self.assign(name, inner.span, inner.span, stmt, scope, top);
                    if let Some(d) = self.ix.lookup(name, scope) {
                        self.ix.defs[d].detail = Some(printer::print_type(ty));
                    }
                } else {
                    self.target(inner, scope, stmt, top, op);
                }
            }
            ExprKind::Matrix(items) => {
                for i in items {
                    self.target(i, scope, stmt, top, op);
                }
            }
            _ => self.expr(t, scope),
        }
    }

    fn params(&mut self, ps: &[Param], kind: DefKind, scope: ScopeId) -> Vec<String> {
        let mut shown = Vec::new();
        for p in ps {
            if let Some(d) = &p.default {
                self.expr(d, scope);
            }
            let d = self.def(&p.name.name, kind, p.name.span, p.name.span, scope);
            self.ix.defs[d].detail = p.ty.as_ref().map(printer::print_type);
            self.use_(&p.name.name, p.name.span, scope, false);
            shown.push(show_param(p));
        }
        shown
    }

    fn function(&mut self, f: &Function, scope: ScopeId, top: bool) {
        let d = self.def(&f.name.name, DefKind::Function, f.name.span, f.span, scope);
        if top {
            self.ix.top.push(d);
        }
        self.use_(&f.name.name, f.name.span, scope, false);
        let inner = self.scope(Some(scope), f.span);
        let params = self.params(&f.params, DefKind::Parameter, inner);
        let outputs = self.params(&f.outputs, DefKind::Output, inner);
        let def = &mut self.ix.defs[d];
        def.inner = Some(inner);
        def.detail = Some(signature(f, &outputs, &params));
        def.params = params;
        self.block(&f.body, inner, false);
    }

    fn expr(&mut self, e: &Expr, scope: ScopeId) {
        match &e.kind {
            ExprKind::Ident(name) => self.use_(name, e.span, scope, false),
            ExprKind::Unary(_, a) => self.expr(a, scope),
            ExprKind::Binary(_, a, b) => {
                self.expr(a, scope);
                self.expr(b, scope);
            }
            ExprKind::Range { start, step, end } => {
                self.expr(start, scope);
                if let Some(s) = step {
                    self.expr(s, scope);
                }
                self.expr(end, scope);
            }
            ExprKind::Ternary(c, a, b) => {
                self.expr(c, scope);
                self.expr(a, scope);
                self.expr(b, scope);
            }
            ExprKind::Call { callee, args } => {
                self.expr(callee, scope);
                args.iter().for_each(|a| self.expr(a, scope));
            }
            ExprKind::Index { base, indices } => {
                self.expr(base, scope);
                indices.iter().for_each(|a| self.expr(a, scope));
            }
            ExprKind::Field { base, name } => {
                self.expr(base, scope);
                self.use_(&name.name, name.span, scope, true);
            }
            ExprKind::Matrix(items) | ExprKind::Cell(items) => {
                items.iter().for_each(|a| self.expr(a, scope))
            }
            ExprKind::Lambda(l) => {
                let inner = self.scope(Some(scope), e.span);
                self.params(&l.params, DefKind::Parameter, inner);
                match &l.body {
                    LambdaBody::Expr(b) => self.expr(b, inner),
                    LambdaBody::Block(b) => self.block(b, inner, false),
                }
            }
            ExprKind::Typed(a, _) => self.expr(a, scope),
            ExprKind::Named(_, a) => self.expr(a, scope),
            ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::Imag(_)
            | ExprKind::Str(_)
            | ExprKind::Colon
            | ExprKind::Type(_) => {}
        }
    }
}

/// `x`, `x : mat`, `x : int = 3`.
fn show_param(p: &Param) -> String {
    let mut s = p.name.name.clone();
    if let Some(t) = &p.ty {
        s += " : ";
        s += &printer::print_type(t);
    }
    if let Some(d) = &p.default {
        s += " = ";
        s += &printer::print_expr(d);
    }
    s
}

/// `function [a, b] = __kernel__ name(x : mat, n : int)` as written.
fn signature(f: &Function, outputs: &[String], params: &[String]) -> String {
    let kind = match f.kind {
        FnKind::Host => "",
        FnKind::Kernel => "__kernel__ ",
        FnKind::Device => "__device__ ",
    };
    let outs = match outputs {
        [] => "[]".to_string(),
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    };
    format!(
        "function {outs} = {kind}{}({})",
        f.name.name,
        params.join(", ")
    )
}
