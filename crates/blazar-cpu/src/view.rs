//! `ItemView`: what an observer may read of a work item stopped at a statement.
//!
//! Given to [`crate::Observer::stmt`]: the statement's line and nesting depth, the
//! execution mask and which lanes have returned, each kernel variable's value per lane
//! (by name, from its registers), the shared arrays of the block and elements of the
//! global arrays. Values come back as [`KValue`]s; nothing can be written.

use crate::exec::{Ctx, Scratch};
use crate::memory::{with_elem, Elem};
use crate::values::{with_scalar, KValue, LaneTy};
use blazar_kir::Space;

/// A read-only view of one work item at the start of a statement.
pub struct ItemView<'a, 'o> {
    pub(crate) scratch: &'a Scratch,
    pub(crate) ctx: &'a Ctx<'a, 'o>,
    /// The work item (a block for kernels with barriers or shared memory).
    pub item: usize,
    /// Source line of the statement about to run.
    pub line: u32,
    /// How many blocks (`if`, loop bodies) enclose the statement; 0 at the top.
    pub depth: usize,
    /// The lanes that run the statement.
    pub mask: &'a [bool],
    /// Which step of the statement the lanes of `mask` start: 0 when they start the
    /// statement; under the random schedule a statement may run in steps, each ending
    /// at a memory access, and the threads of a block switch between them
    /// (`exec/steps.rs`).
    pub part: u32,
}

/// A shared or global array as the view shows it: name, dimensions, elements.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayData {
    pub name: String,
    pub dims: Vec<usize>,
    pub values: Vec<KValue>,
}

impl ItemView<'_, '_> {
    /// Lanes in this work item.
    pub fn lanes(&self) -> usize {
        self.scratch.n
    }

    /// Whether lane `l` has not returned.
    pub fn live(&self, l: usize) -> bool {
        self.scratch.live.get(l).copied().unwrap_or(false)
    }

    /// Under the random schedule: the line of the statement where lane `l` waits
    /// while other threads of its block run (`None`: it is not paused there).
    pub fn paused(&self, l: usize) -> Option<u32> {
        self.scratch.paused.get(l).copied().filter(|&p| p > 0)
    }

    /// Names of the kernel's variables, in declaration order.
    pub fn var_names(&self) -> Vec<&str> {
        self.ctx.prog.var_names.iter().map(String::as_str).collect()
    }

    /// The value of variable `name` in lane `l` (a vector for vector variables).
    pub fn var(&self, name: &str, l: usize) -> Option<KValue> {
        let i = self.ctx.prog.var_names.iter().rposition(|n| n == name)?;
        let regs = self.ctx.prog.var_regs.get(i)?;
        if l >= self.scratch.n {
            return None;
        }
        let mut comps: Vec<KValue> = regs
            .iter()
            .map(|&r| self.scratch.regs[r as usize].lane(l))
            .collect();
        match comps.len() {
            1 => comps.pop(),
            _ => Some(KValue::Vector(comps)),
        }
    }

    /// The kernel's array slot named `name`.
    fn slot(&self, name: &str) -> Option<usize> {
        self.ctx.prog.array_names.iter().position(|n| n == name)
    }

    /// The shared arrays this block has allocated.
    pub fn shared(&self) -> Vec<ArrayData> {
        let mut out = Vec::new();
        for (a, s) in self.scratch.shared.iter().enumerate() {
            let Some(s) = s else { continue };
            if s.dims.is_empty() || self.ctx.prog.arrays[a].space != Space::Shared {
                continue;
            }
            let n: usize = s.dims.iter().product();
            let values = with_scalar!(s.data.scalar(), T => {
                T::get(&s.data).iter().take(n).map(|x| x.to_kvalue()).collect()
            });
            out.push(ArrayData {
                name: self.ctx.prog.array_names[a].clone(),
                dims: s.dims.clone(),
                values,
            });
        }
        out
    }

    /// The dimensions of array `name` (shared or global), if it exists here.
    pub fn array_dims(&self, name: &str) -> Option<Vec<usize>> {
        let a = self.slot(name)?;
        match self.ctx.prog.arrays[a].space {
            Space::Global => self.ctx.globals[a].map(|g| g.dims.clone()),
            Space::Shared => self.scratch.shared[a].as_ref().map(|s| s.dims.clone()),
            Space::Local => None,
        }
    }

    /// Element `offset` (row-major) of array `name`, shared or global.
    pub fn element(&self, name: &str, offset: usize) -> Option<KValue> {
        let a = self.slot(name)?;
        match self.ctx.prog.arrays[a].space {
            Space::Global => {
                let g = self.ctx.globals[a]?;
                if offset >= g.dims.iter().product() {
                    return None;
                }
                with_elem!(g.elem, T => {
                    let v: Option<T> = if g.written {
                        g.atoms::<T>().get(offset).map(T::load)
                    } else {
                        g.plain::<T>().get(offset).copied()
                    };
                    v.map(|x| x.to_kvalue())
                }, None)
            }
            Space::Shared => {
                let s = self.scratch.shared[a].as_ref()?;
                if offset >= s.dims.iter().product() {
                    return None;
                }
                with_scalar!(s.data.scalar(), T => T::get(&s.data).get(offset).map(|x| x.to_kvalue()))
            }
            Space::Local => None,
        }
    }
}
