//! Function scopes during resolution and the lookup of variable names through them.
//!
//! Each function being resolved has a [`Scope`]; scopes link to the scope of the
//! function that lexically encloses them. A name that is not local but belongs to an
//! enclosing function becomes a *capture*: a new local slot filled when the closure is
//! created. Lambdas also capture top-level variables (by value, at creation); named
//! functions read top-level variables directly as globals.

use crate::hir::{FnId, Var};
use std::collections::HashMap;

pub struct Scope {
    pub func: FnId,
    pub parent: Option<usize>,
    pub is_script: bool,
    pub is_lambda: bool,
    pub locals: HashMap<String, u32>,
    pub local_names: Vec<String>,
    pub capture_names: Vec<String>,
    pub capture_slots: Vec<u32>,
    /// Nested named functions defined directly in this function.
    pub nested: HashMap<String, FnId>,
    /// Labels of the loops enclosing the statement being resolved, innermost last.
    pub loops: Vec<Option<String>>,
}

impl Scope {
    pub fn new(func: FnId, parent: Option<usize>) -> Scope {
        Scope {
            func,
            parent,
            is_script: false,
            is_lambda: false,
            locals: HashMap::new(),
            local_names: Vec::new(),
            capture_names: Vec::new(),
            capture_slots: Vec::new(),
            nested: HashMap::new(),
            loops: Vec::new(),
        }
    }

    pub fn add_local(&mut self, name: &str) -> u32 {
        if let Some(&s) = self.locals.get(name) {
            return s;
        }
        let slot = self.local_names.len() as u32;
        self.locals.insert(name.to_string(), slot);
        self.local_names.push(name.to_string());
        slot
    }
}

/// The scopes of the functions being resolved plus the global variables.
pub struct Scopes {
    pub stack: Vec<Scope>,
    pub globals: HashMap<String, u32>,
}

impl Scopes {
    /// Whether `name` is a variable of scope `i` or of any enclosing function.
    fn defined_above(&self, i: usize, name: &str) -> bool {
        let s = &self.stack[i];
        if s.is_script {
            return false;
        }
        s.locals.contains_key(name) || s.parent.is_some_and(|p| self.defined_above(p, name))
    }

    /// Whether a function nested in scope `i` (a lambda when `lambda`) would see `name`
    /// as a variable of an enclosing scope.
    pub fn visible_from(&self, i: usize, name: &str, lambda: bool) -> bool {
        self.defined_above(i, name) || (lambda && self.globals.contains_key(name))
    }

    /// Resolves a variable name in scope `i`, adding captures where needed.
    pub fn lookup(&mut self, i: usize, name: &str) -> Option<Var> {
        let s = &self.stack[i];
        if s.is_script {
            return self.globals.get(name).map(|&g| Var::Global(g));
        }
        if let Some(&slot) = s.locals.get(name) {
            return Some(Var::Local(slot));
        }
        let from_parent = s.parent.is_some_and(|p| self.defined_above(p, name));
        let global = self.globals.contains_key(name);
        if from_parent || (global && s.is_lambda) {
            let s = &mut self.stack[i];
            let slot = s.add_local(name);
            s.capture_names.push(name.to_string());
            s.capture_slots.push(slot);
            return Some(Var::Local(slot));
        }
        self.globals.get(name).map(|&g| Var::Global(g))
    }

    /// Finds a nested named function visible from scope `i`.
    pub fn nested_fn(&self, i: usize, name: &str) -> Option<FnId> {
        let s = &self.stack[i];
        if let Some(&f) = s.nested.get(name) {
            return Some(f);
        }
        s.parent.and_then(|p| self.nested_fn(p, name))
    }
}
