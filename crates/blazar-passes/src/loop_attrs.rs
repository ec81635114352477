//! Code attributes of a loop body that steer its kernel (seed 003):
//! `!kernel_transform enable="sharedmemcaching"` with `!kernel_arg name=y; ...; numel=N`,
//! written in the body or brought in by a macro (`!hist_profile` expanding a `macro`
//! whose attributes may sit under `if $target("gpu")`), and `!kernel_tiling dims=[...];
//! target="..."`, the block shape the kernel is launched with on that target.

use crate::loop_deps::{Analysis, Class};
use crate::outline::Caching;
use blazar_hir::{Program, Stmt, StmtKind, Var};

/// One attribute, with the target it is restricted to.
struct Attr {
    name: String,
    args: String,
    target: Option<String>,
}

/// The attributes of `bodies` (directly in them), macros expanded.
fn attrs(bodies: &[&[Stmt]], prog: &Program) -> Vec<Attr> {
    let mut out = Vec::new();
    for b in bodies {
        for s in b.iter() {
            let StmtKind::Attribute { name, args, .. } = &s.kind else {
                continue;
            };
            match prog.macros.iter().find(|m| &m.name == name) {
                Some(m) => out.extend(m.attrs.iter().map(|a| Attr {
                    name: a.name.clone(),
                    args: a.args.clone(),
                    target: a.target.clone(),
                })),
                None => out.push(Attr {
                    name: name.clone(),
                    args: args.clone(),
                    target: None,
                }),
            }
        }
    }
    out
}

/// `key=value` pairs of an attribute's arguments (`blazar_hir::attr_args`; `check`
/// reports malformed ones, which steer nothing here).
fn pairs(args: &str) -> Vec<(String, String)> {
    blazar_hir::attr_args::parse(args)
        .map(|a| a.pairs)
        .unwrap_or_default()
}

/// The caching transform the body asks for, when it applies: the named array is one the
/// kernel updates atomically, and the number of elements to cache is given.
pub fn caching(
    bodies: &[&[Stmt]],
    an: &Analysis,
    prog: &Program,
    name: &dyn Fn(Var) -> String,
) -> Option<(Caching, Option<String>)> {
    let all = attrs(bodies, prog);
    let transform = all.iter().find(|a| {
        a.name == "kernel_transform"
            && pairs(&a.args)
                .iter()
                .any(|(k, v)| k == "enable" && v == "sharedmemcaching")
    })?;
    for a in all.iter().filter(|a| a.name == "kernel_arg") {
        let kv = pairs(&a.args);
        let get = |key: &str| kv.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let (Some(arr), Some(numel)) = (get("name"), get("numel")) else {
            continue;
        };
        let Ok(numel) = numel.parse::<i64>() else {
            continue;
        };
        if get("op").is_some_and(|op| op != "+=") || !(1..=12288).contains(&numel) {
            continue;
        }
        let var = an
            .vars
            .iter()
            .find(|(v, c)| *c == Class::Atomic && name(*v) == arr)
            .map(|(v, _)| *v)?;
        // One index per update (`y[v] += 1`): the shared copy is a vector.
        let one_index = an
            .accesses
            .iter()
            .filter(|(v, _)| *v == var)
            .all(|(_, lists)| lists.iter().all(|l| l.len() == 1));
        if !one_index {
            return None;
        }
        let target = transform.target.clone().or_else(|| a.target.clone());
        return Some((Caching { array: var, numel }, target));
    }
    None
}

/// `!kernel_tiling dims=[a, b, c]; mode=...; target=...`: the block shape asked for (one
/// extent per level; missing ones are 1) and the target it is for.
pub fn tiling(
    bodies: &[&[Stmt]],
    prog: &Program,
    levels: usize,
) -> Option<(Vec<usize>, Option<String>)> {
    let all = attrs(bodies, prog);
    let a = all.iter().find(|a| a.name == "kernel_tiling")?;
    let kv = blazar_hir::attr_args::parse(&a.args).ok()?;
    let dims = blazar_hir::attr_args::extents(kv.get("dims")?)?;
    let target = kv
        .get("target")
        .map(str::to_string)
        .or_else(|| a.target.clone());
    let mut d = dims;
    d.resize(levels, 1);
    Some((d, target))
}
