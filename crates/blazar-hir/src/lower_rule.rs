//! Lowering of `reduction` rewrite rules: each rule's parameters are the locals of a
//! scope of its own, and its pattern, replacement and `where` condition are lowered in
//! it (the pass that applies the rules is `passes::apply_rules`).

use crate::hir;
use crate::lower::Lowerer;
use crate::scope::Scope;
use crate::types::Ty;
use blazar_syntax as ast;

impl<'a> Lowerer<'a> {
    /// A `reduction` rule: its parameters are the only locals of a scope of its own
    /// (other names are builtins and functions), so they take slots `0..n`.
    pub fn lower_rule(
        &mut self,
        params: &'a [ast::Param],
        pattern: &'a ast::Stmt,
        replacement: &'a ast::Stmt,
        cond: Option<&'a ast::Expr>,
        span: blazar_diagnostics::Span,
    ) {
        let id = self.new_fn(hir::Function {
            name: "reduction".into(),
            kind: ast::FnKind::Host,
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
        });
        let saved = self.cur;
        let mut sc = Scope::new(id, None);
        let slots: Vec<u32> = params.iter().map(|p| sc.add_local(&p.name.name)).collect();
        self.scopes.stack.push(sc);
        self.cur = self.scopes.stack.len() - 1;
        let params: Vec<hir::Param> = params
            .iter()
            .zip(slots)
            .map(|(p, slot)| self.lower_param(p, slot))
            .collect();
        let pattern = self.lower_stmt(pattern);
        let replacement = self.lower_stmt(replacement);
        let cond = cond.map(|c| self.lower_expr(c));
        let sc = self.scopes.stack.pop().expect("scope pushed above");
        self.forget_declared(self.scopes.stack.len());
        self.cur = saved;
        let func = &mut self.prog.functions[id as usize];
        func.n_locals = sc.local_names.len() as u32;
        func.local_names = sc.local_names;
        if let (Some(pattern), Some(replacement)) = (pattern, replacement) {
            self.prog.rules.push(hir::RewriteRule {
                params,
                pattern,
                replacement,
                cond,
                span,
            });
        }
    }
}
