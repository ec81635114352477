//! Lowering of the AST to HIR: resolves every name, numbers variables, and reports
//! undefined names, misplaced `break`s and unknown types as located diagnostics.

use crate::collect::{assigned_names, indexed_only_names, nested_functions};
use crate::hints::Hints;
use crate::hir::{self, Annot, FnGroup, FnId, Program, Var};
use crate::scope::{Scope, Scopes};
use crate::types::{resolve_type, Ty, TypeNames};
use blazar_diagnostics::{Diagnostic, Span};
use blazar_syntax as ast;
use std::collections::HashMap;

/// Resolves a whole program. `builtin` maps a builtin function name to its id.
pub fn lower_program(
    p: &ast::Program,
    builtin: &dyn Fn(&str) -> Option<u32>,
) -> (Program, Vec<Diagnostic>) {
    lower_program_with(p, builtin, &[])
}

/// [`lower_program`] for a program that imports .NET plugins Blazar does not provide:
/// each is given with the names known to come from it, so that a use of one (or of any
/// undefined name) says where it comes from.
pub fn lower_program_with(
    p: &ast::Program,
    builtin: &dyn Fn(&str) -> Option<u32>,
    plugins: &[(String, Vec<String>)],
) -> (Program, Vec<Diagnostic>) {
    lower_program_hinted(p, builtin, plugins, Hints::default())
}

/// [`lower_program_with`], with the names an undefined name is compared with for a
/// "did you mean" note: the builtins and the bundled modules' functions.
pub fn lower_program_hinted<'a>(
    p: &'a ast::Program,
    builtin: &'a dyn Fn(&str) -> Option<u32>,
    plugins: &[(String, Vec<String>)],
    hints: Hints<'a>,
) -> (Program, Vec<Diagnostic>) {
    let mut l = Lowerer {
        hints,
        prog: Program::default(),
        diags: Vec::new(),
        builtin,
        groups: HashMap::new(),
        classes: HashMap::new(),
        aliases: HashMap::new(),
        scopes: Scopes {
            stack: Vec::new(),
            globals: HashMap::new(),
        },
        cur: 0,
        pending: HashMap::new(),
        resolving: Vec::new(),
        declared: HashMap::new(),
        fn_asts: HashMap::new(),
        plugins: plugins.to_vec(),
        declared_fields: HashMap::new(),
    };
    l.lower_script(p);
    (l.prog, l.diags)
}

pub(crate) struct Lowerer<'a> {
    pub hints: Hints<'a>,
    pub prog: Program,
    pub diags: Vec<Diagnostic>,
    pub builtin: &'a dyn Fn(&str) -> Option<u32>,
    pub groups: HashMap<String, u32>,
    pub classes: HashMap<String, u32>,
    pub aliases: HashMap<String, Ty>,
    pub scopes: Scopes,
    /// Index of the current scope in `scopes.stack`.
    pub cur: usize,
    /// Nested functions not resolved yet: their AST and the scope they belong to.
    pending: HashMap<FnId, (&'a ast::Function, usize)>,
    /// Nested functions being resolved (to reject cycles).
    resolving: Vec<FnId>,
    /// Declared types of variables, by scope: later plain assignments convert to them.
    pub declared: HashMap<(usize, hir::Var), Annot>,
    /// The source of every named function, for named arguments (`f(x := 3)`).
    pub fn_asts: HashMap<FnId, &'a ast::Function>,
    /// Imported plugins that Blazar does not provide, with their known names.
    pub plugins: Vec<(String, Vec<String>)>,
    /// Field types stated at an assignment (`p.gain : scalar = 2.5`), by scope,
    /// variable and field: later assignments to the field convert to them.
    pub declared_fields: HashMap<(usize, hir::Var, String), Annot>,
}

struct Names<'b> {
    aliases: &'b HashMap<String, Ty>,
    classes: &'b HashMap<String, u32>,
}

impl TypeNames for Names<'_> {
    fn user_type(&self, name: &str) -> Option<Ty> {
        self.aliases.get(name).cloned().or_else(|| {
            self.classes
                .get(name)
                .map(|&c| Ty::Class(c, name.to_string()))
        })
    }
}

fn placeholder(name: &str, kind: ast::FnKind, span: Span) -> hir::Function {
    hir::Function {
        name: name.to_string(),
        kind,
        params: vec![],
        outputs: vec![],
        capture_slots: vec![],
        capture_names: vec![],
        n_locals: 0,
        local_names: vec![],
        body: vec![],
        result: None,
        span,
        ty: Ty::Unknown,
    }
}

impl<'a> Lowerer<'a> {
    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    pub fn resolve_ty(&mut self, t: &ast::TypeExpr) -> Ty {
        let names = Names {
            aliases: &self.aliases,
            classes: &self.classes,
        };
        match resolve_type(t, &names) {
            Ok(ty) => ty,
            Err((msg, span)) => {
                self.error(span, msg);
                Ty::Unknown
            }
        }
    }

    pub fn annot(&mut self, t: &ast::TypeExpr) -> Annot {
        let ty = self.resolve_ty(t);
        let mut a = Annot {
            ty,
            mode: None,
            is_const: false,
        };
        for m in &t.modifiers {
            match m.name.as_str() {
                "const" => a.is_const = true,
                "safe" | "circular" | "mirror" | "clamped" | "checked" | "unchecked" => {
                    a.mode = Some(m.name.clone())
                }
                "hwtex_nearest" | "hwtex_linear" | "hwtex_const" => {}
                other => self.error(m.span, format!("unknown access modifier `'{other}`")),
            }
        }
        a
    }

    pub(crate) fn new_fn(&mut self, f: hir::Function) -> FnId {
        self.prog.functions.push(f);
        self.prog.functions.len() as FnId - 1
    }

    fn lower_script(&mut self, p: &'a ast::Program) {
        // Types first: classes and aliases may be used anywhere.
        for s in &p.stmts {
            if let ast::StmtKind::TypeDef { name, def } = &s.kind {
                match def {
                    ast::TypeDef::Class { mutable, .. } => {
                        let id = self.prog.classes.len() as u32;
                        self.prog.classes.push(hir::ClassDef {
                            name: name.name.clone(),
                            mutable: *mutable,
                            fields: vec![],
                        });
                        self.classes.insert(name.name.clone(), id);
                    }
                    ast::TypeDef::Alias(_) => {}
                }
            }
        }
        for s in &p.stmts {
            if let ast::StmtKind::TypeDef { name, def } = &s.kind {
                match def {
                    ast::TypeDef::Alias(t) => {
                        let ty = self.resolve_ty(t);
                        self.aliases.insert(name.name.clone(), ty);
                    }
                    ast::TypeDef::Class { fields, .. } => {
                        let id = self.classes[&name.name];
                        let fs: Vec<(String, Ty)> = fields
                            .iter()
                            .map(|f| {
                                (
                                    f.name.name.clone(),
                                    f.ty.as_ref().map_or(Ty::Unknown, |t| self.resolve_ty(t)),
                                )
                            })
                            .collect();
                        self.prog.classes[id as usize].fields = fs;
                    }
                }
            }
        }
        // Top-level functions form overload groups by name.
        let script = self.new_fn(placeholder("<script>", ast::FnKind::Host, Span::default()));
        self.prog.script = script;
        let mut top: Vec<(&'a ast::Function, FnId)> = Vec::new();
        for s in &p.stmts {
            if let ast::StmtKind::Function(f) = &s.kind {
                let id = self.new_fn(placeholder(&f.name.name, f.kind, f.span));
                self.fn_asts.insert(id, f);
                top.push((f, id));
                let g = match self.groups.get(&f.name.name) {
                    Some(&g) => g,
                    None => {
                        self.prog.groups.push(FnGroup {
                            name: f.name.name.clone(),
                            members: vec![],
                        });
                        let g = self.prog.groups.len() as u32 - 1;
                        self.groups.insert(f.name.name.clone(), g);
                        g
                    }
                };
                self.prog.groups[g as usize].members.push(id);
                // Only the program's own `main` runs, never an imported file's (the
                // main file is the first, `FileId(0)`).
                if f.name.name == "main" && f.params.is_empty() && f.span.file.0 == 0 {
                    self.prog.main = Some(id);
                }
            }
        }
        let mut globals = Vec::new();
        assigned_names(&p.stmts, &mut globals);
        for (i, g) in globals.iter().enumerate() {
            self.scopes.globals.insert(g.clone(), i as u32);
        }
        self.prog.global_names = globals;
        let mut sc = Scope::new(script, None);
        sc.is_script = true;
        self.scopes.stack.push(sc);
        self.cur = 0;
        for (f, id) in top {
            self.lower_function(f, id, Some(0));
        }
        let body = self.lower_block(&p.stmts);
        self.prog.functions[script as usize].body = body;
    }

    /// Resolves a named function (top-level or nested) into slot `id`.
    pub fn lower_function(&mut self, f: &'a ast::Function, id: FnId, parent: Option<usize>) {
        let saved = self.cur;
        let mut sc = Scope::new(id, parent);
        let mut params = Vec::new();
        for p in &f.params {
            let slot = sc.add_local(&p.name.name);
            params.push((p, slot));
        }
        let mut outputs = Vec::new();
        for o in &f.outputs {
            let slot = sc.add_local(&o.name.name);
            outputs.push((o, slot));
        }
        let mut names = Vec::new();
        assigned_names(&f.body, &mut names);
        let indexed = indexed_only_names(&f.body);
        for n in &names {
            // `y[i] = v` in a nested function updates the enclosing `y`.
            let outer = parent.is_some_and(|p| self.scopes.visible_from(p, n, false));
            if !(outer && indexed.contains(n) && !sc.locals.contains_key(n)) {
                sc.add_local(n);
            }
        }
        self.scopes.stack.push(sc);
        self.cur = self.scopes.stack.len() - 1;
        self.register_nested(&f.body);
        let params = params
            .into_iter()
            .map(|(p, slot)| self.lower_param(p, slot))
            .collect::<Vec<_>>();
        let outputs = outputs
            .into_iter()
            .map(|(p, slot)| self.lower_param(p, slot))
            .collect::<Vec<_>>();
        let body = self.lower_block(&f.body);
        self.finish_nested();
        let sc = self.scopes.stack.pop().expect("scope pushed above");
        self.forget_declared(self.scopes.stack.len());
        self.cur = saved;
        let ty = Ty::Func {
            kind: f.kind,
            params: params
                .iter()
                .map(|p: &hir::Param| p.ty.as_ref().map_or(Ty::Unknown, |a| a.ty.clone()))
                .collect(),
            results: outputs
                .iter()
                .map(|p| p.ty.as_ref().map_or(Ty::Unknown, |a| a.ty.clone()))
                .collect(),
        };
        let func = &mut self.prog.functions[id as usize];
        func.params = params;
        func.outputs = outputs;
        func.body = body;
        func.n_locals = sc.local_names.len() as u32;
        func.local_names = sc.local_names;
        func.capture_names = sc.capture_names;
        func.capture_slots = sc.capture_slots;
        func.ty = ty;
    }

    /// Drops the declared types of the scope at `depth` (and deeper): scope indices are
    /// reused by the next sibling function, which must not inherit them.
    pub(crate) fn forget_declared(&mut self, depth: usize) {
        self.declared.retain(|(d, _), _| *d < depth);
        self.declared_fields.retain(|(d, _, _), _| *d < depth);
    }

    pub fn lower_param(&mut self, p: &'a ast::Param, slot: u32) -> hir::Param {
        let ty = p.ty.as_ref().map(|t| self.annot(t));
        if let Some(t) = &ty {
            self.declared
                .insert((self.cur, hir::Var::Local(slot)), t.clone());
        }
        let default = p.default.as_ref().map(|d| self.lower_expr(d));
        hir::Param {
            name: p.name.name.clone(),
            slot,
            ty,
            default,
            span: p.name.span,
        }
    }

    /// Gives every nested function of the current body an id; they are resolved lazily.
    fn register_nested(&mut self, body: &'a [ast::Stmt]) {
        for f in nested_functions(body) {
            let id = self.new_fn(placeholder(&f.name.name, f.kind, f.span));
            self.fn_asts.insert(id, f);
            self.scopes.stack[self.cur]
                .nested
                .insert(f.name.name.clone(), id);
            self.pending.insert(id, (f, self.cur));
        }
    }

    /// Resolves the nested functions of the current scope that nobody referenced.
    fn finish_nested(&mut self) {
        let mut ids: Vec<FnId> = self.scopes.stack[self.cur]
            .nested
            .values()
            .copied()
            .collect();
        ids.sort();
        for id in ids {
            self.ensure_nested(id, Span::default());
        }
    }

    /// Makes sure nested function `id` is resolved (its captures are then known).
    pub fn ensure_nested(&mut self, id: FnId, at: Span) -> bool {
        if let Some((f, parent)) = self.pending.remove(&id) {
            self.resolving.push(id);
            self.lower_function(f, id, Some(parent));
            self.resolving.pop();
            true
        } else if self.resolving.contains(&id) {
            let name = self.prog.functions[id as usize].name.clone();
            self.error(at, format!("nested function `{name}` is used by a function it uses; mutually recursive nested functions are not supported (define them at the top level)"));
            false
        } else {
            true
        }
    }

    /// The variables that a closure over `id` created in the current scope copies.
    pub fn capture_sources(&mut self, id: FnId) -> Vec<Var> {
        let names = self.prog.functions[id as usize].capture_names.clone();
        names
            .iter()
            .map(|n| {
                self.scopes
                    .lookup(self.cur, n)
                    .unwrap_or(Var::Global(u32::MAX))
            })
            .collect()
    }

    pub fn lookup_var(&mut self, name: &str) -> Option<Var> {
        self.scopes.lookup(self.cur, name)
    }

    /// Resolves a lambda expression into a new function.
    pub fn lower_lambda(&mut self, lam: &'a ast::Lambda, span: Span) -> (FnId, Vec<Var>) {
        let id = self.new_fn(placeholder("<lambda>", lam.kind, span));
        let saved = self.cur;
        let mut sc = Scope::new(id, Some(saved));
        sc.is_lambda = true;
        let mut slots = Vec::new();
        for p in &lam.params {
            slots.push(sc.add_local(&p.name.name));
        }
        if let ast::LambdaBody::Block(b) = &lam.body {
            let mut names = Vec::new();
            assigned_names(b, &mut names);
            let indexed = indexed_only_names(b);
            for n in &names {
                // `y[i] = v` in a lambda updates the captured `y`.
                let outer = self.scopes.visible_from(saved, n, true);
                if !(outer && indexed.contains(n) && !sc.locals.contains_key(n)) {
                    sc.add_local(n);
                }
            }
        }
        self.scopes.stack.push(sc);
        self.cur = self.scopes.stack.len() - 1;
        let params: Vec<hir::Param> = lam
            .params
            .iter()
            .zip(slots)
            .map(|(p, s)| self.lower_param(p, s))
            .collect();
        let (body, result) = match &lam.body {
            ast::LambdaBody::Expr(e) => (vec![], Some(self.lower_expr(e))),
            ast::LambdaBody::Block(b) => {
                self.register_nested(b);
                let mut body = self.lower_block(b);
                self.finish_nested();
                // The value of a block lambda is its last expression statement.
                let result = match body.last().map(|s| &s.kind) {
                    Some(hir::StmtKind::Expr(_)) => match body.pop().map(|s| s.kind) {
                        Some(hir::StmtKind::Expr(e)) => Some(e),
                        _ => None,
                    },
                    _ => None,
                };
                (body, result)
            }
        };
        let result_ty = match &result {
            Some(e) => crate::infer::expr_type(e, &params),
            None => Ty::Unknown,
        };
        let sc = self.scopes.stack.pop().expect("scope pushed above");
        self.forget_declared(self.scopes.stack.len());
        self.cur = saved;
        let ty = Ty::Func {
            kind: lam.kind,
            params: params
                .iter()
                .map(|p| p.ty.as_ref().map_or(Ty::Unknown, |a| a.ty.clone()))
                .collect(),
            results: if result.is_some() {
                vec![result_ty]
            } else {
                vec![]
            },
        };
        let func = &mut self.prog.functions[id as usize];
        func.params = params;
        func.body = body;
        func.result = result;
        func.n_locals = sc.local_names.len() as u32;
        func.local_names = sc.local_names;
        func.capture_names = sc.capture_names;
        func.capture_slots = sc.capture_slots;
        func.ty = ty;
        let caps = self.capture_sources(id);
        (id, caps)
    }
}
