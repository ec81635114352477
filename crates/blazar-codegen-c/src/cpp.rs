//! KIR → host C++: one kernel specialisation as an `extern "C"` function that runs a
//! range of work items.
//!
//! The function `bz_run(call, lo, hi, partials, err)` runs work items `lo..hi` of the
//! launch described by `call` (see `blazar-native`'s `abi`), exactly as the CPU executor lays them
//! out: chunks of `call->chunk` consecutive threads in row-major order. Within a chunk
//! the threads run one after another; the threads of one row form a plain counted loop
//! whose body is the kernel (`rows`), in a check-free copy where the row's accesses are
//! proven in range (`range`), with uniform loops run over strips of threads (`strips`).
//! Kernels with barriers run one block per work item by loop fission (`fission`,
//! `interleave`). Kernel outputs are combined per work item (in thread order) into
//! `partials[item]`; `bz_finish` folds the partials in item order and applies the
//! output's final op, as the executor does. The first error stops the range and is
//! returned in `err`.

mod alike;
mod calls;
mod cmpabs;
pub mod code;
mod descend;
mod dialect;
mod expr;
mod fission;
mod flat_index;
mod index_cast;
mod interleave;
mod jam;
mod known_affine;
mod masked;
mod memory;
mod once;
mod prelude_mem;
mod private;
mod range;
mod rows;
mod rowsplit;
mod runlocal;
mod scatter_unroll;
mod selects;
mod stride_prefetch;
mod strips;
mod support;
mod while_strips;
mod widen;

pub use support::{plan, Plan, SlotKind};

use crate::printer::Out;
use crate::spell;
use blazar_kir::affine::Ranges;
use blazar_kir::{AtomicOp, Bind, Kernel, Special, Ty};
use std::collections::BTreeSet;
use std::fmt::Write;

/// The largest extent of an array that a native launch indexes (larger ones run on the
/// interpreter): indices `blkpos ± c` computed in 64 bits agree with the wrapped
/// 32-bit ones below it (`widen`).
pub const MAX_WIDE_EXTENT: usize = (i32::MAX as usize) - 1024;

/// Bytes reserved per output partial (the largest scalar, c64).
pub const PARTIAL_BYTES: usize = 16;

/// The generator state of one kernel.
pub(crate) struct Gen<'k> {
    pub k: &'k Kernel,
    pub plan: &'k Plan,
    /// The text, its indentation and loops (the shared walk's state).
    pub o: Out,
    pub line: u32,
    /// Specials used, as (kind, component) with kind 0 pos .. 4 blkcnt.
    pub specials: BTreeSet<(u8, u8)>,
    pub next_tmp: usize,
    /// Accesses proven in range for whole rows (kernels without barriers): the
    /// kernel's range facts, once the fast copy is generated.
    pub proofs: &'k Ranges,
    /// The last extent when rows flatten the last two `pos` components.
    pub flat: Option<u32>,
    /// Generating the fast copy of the body (proven accesses unchecked).
    pub fast: bool,
    /// The label that ends the current thread (`return`).
    pub next: String,
    /// The strip code of the fast copy and its launch-wide no-overlap condition.
    pub strip: Option<(String, String)>,
    /// The strip is a reduction's: outputs accumulate per lane (`bz_lacc<o>`) across
    /// the work item's strips and are folded once at its end.
    pub lane_outputs: bool,
    /// Under fission: the variables whose values never cross runs (`runlocal`).
    pub run_local: Vec<bool>,
    /// A variable whose value is also held, exactly, by an i64 C expression (used to
    /// index with it: the compiler then sees an affine index).
    pub wide: Option<(u32, String)>,
    /// Accesses proven in range for a whole interleaved loop (`interleave`): array and
    /// index, the last index the `wide` variable, the others fixed over the loop.
    pub wide_in_range: Vec<(u32, Vec<String>)>,
    /// Variables that always hold a special when read (the kernel's facts):
    /// reads use the special (a thread loop's own counter, which the compiler sees).
    pub aliases: &'k std::collections::HashMap<u32, Special>,
    /// Under fission: which variables may differ between the threads of a block.
    pub varying: Vec<bool>,
    /// Under fission: the variables held once per block (`once`).
    pub held: Vec<bool>,
    /// Under fission: the per-thread mask of the threads running the current statements
    /// (inside an `if` on a varying condition that holds a barrier), if not all.
    pub active: Option<String>,
    /// Under fission: how many per-thread masks the body uses.
    pub masks: usize,
    /// Under fission: some barrier sits under a varying condition, so barriers check
    /// that no thread which skipped one reaches another (`bz_skip_a`).
    pub divergent: bool,
    /// Under fission: the thread loop being generated (where its text starts, and the
    /// number of its failure label), whose errors stop only the failing thread.
    pub catch: Option<(usize, usize)>,
    pub next_catch: usize,
    /// Per array slot: a global array the kernel only adds into, updated through a
    /// launch's private copies where they fit (`private`).
    pub private: Vec<bool>,
    /// Under fission: per open thread loop, whether it opened a scope of variables
    /// read once before it (`fission::open_threads`).
    pub hoist_scopes: Vec<bool>,
    /// Inside a loop over the block's threads, whose i64 counters `bz_b<c>` are in
    /// scope (`widen`).
    pub thread_counters: bool,
    /// Variables that always hold a component of `blkpos` when read (`widen`).
    pub blkpos_vars: std::collections::HashMap<u32, usize>,
    /// Under fission: variables that every thread holds alike, with the C expression of
    /// their value, inside the loops of an interleaved uniform loop (`interleave`).
    pub uniform_vals: Vec<(u32, String)>,
    /// Under fission: the next thread loop runs threads `lo..hi` in descending order,
    /// none of them stopped (`descend`), and the keys of the accesses proven in range
    /// there.
    pub thread_range: Option<(String, String)>,
    pub in_range: Vec<usize>,
    /// The functions that calls name (the kernel's table, `calls`).
    pub funcs: &'k [blazar_kir::calls::Func],
    /// Printing a function of the table, not the entry point.
    pub in_fn: bool,
}

const SPECIAL_NAMES: [&str; 5] = ["bz_pos", "bz_blkpos", "bz_blkdim", "bz_blkidx", "bz_blkcnt"];

/// The largest last extent for which rows flatten the last two `pos` components.
pub const MAX_FLAT: i64 = 16;

/// The C name of array slot `@a` of `k`.
pub(crate) fn arr_ident(k: &Kernel, a: u32) -> String {
    let name = k.arrays.get(a as usize).map_or("", |d| d.name.as_str());
    format!("a{a}_{}", spell::ident(name))
}

/// The fixed text every generated source starts with: both parts of the prelude, in
/// order. It is the header that `blazar-native` precompiles.
pub fn prelude() -> &'static str {
    static PRELUDE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PRELUDE.get_or_init(|| {
        [
            crate::prelude::PRELUDE_CORE,
            crate::cpp::prelude_mem::PRELUDE_MEM,
            crate::cpp::index_cast::PRELUDE_INDEX,
        ]
        .concat()
    })
}

/// The kernel's own part of a source made by [`generate`]: the text after the
/// [`prelude`], so that the prelude followed by it is the whole source. `None` for a
/// source that does not start with the prelude (none made here).
pub fn kernel_part(source: &str) -> Option<&str> {
    source.strip_prefix(prelude())
}

/// Range facts with no access: what the slow copy of a body consults.
fn no_ranges() -> &'static Ranges {
    static NONE: std::sync::OnceLock<Ranges> = std::sync::OnceLock::new();
    NONE.get_or_init(Ranges::default)
}

/// The C++ source of kernel `k` under its support plan; `last` is the launch's last
/// `pos` extent when it is small (rows then flatten the last two components).
pub fn generate(k: &Kernel, plan: &Plan, last: Option<i64>) -> String {
    let flat = last
        .filter(|&n| (1..=MAX_FLAT).contains(&n) && k.rank >= 2 && !plan.blocky)
        .map(|n| n as u32);
    let mut g = Gen::new(k, plan, flat);
    if plan.blocky {
        g.run_local = runlocal::run_local(k);
        g.varying = k.facts().varying.clone();
        g.divergent = k.facts().divergent_barrier.is_some();
        g.held = g.held_vars();
        g.fblock(&k.body);
        let body = std::mem::take(&mut g.o.text);
        return g.assemble_blocky(&body);
    }
    g.block(&k.body);
    let slow = std::mem::take(&mut g.o.text);
    let proofs = k.ranges();
    // A kernel that calls functions (one thread of host code) has one copy of its body.
    if proofs.accesses.is_empty() || blazar_kir::calls::has_calls(k) {
        return g.assemble(&slow, None);
    }
    g.proofs = proofs;
    g.fast = true;
    g.next = "bz_nextf".into();
    g.block(&k.body);
    let fast = std::mem::take(&mut g.o.text);
    if let Some(st) = g.strip_plan() {
        let code = g.strip_code(&st);
        g.strip = Some((code, g.strip_noalias(&st)));
    }
    g.assemble(&slow, Some(&fast))
}

impl<'k> Gen<'k> {
    /// A generator for kernel `k` under `plan`, before any text.
    fn new(k: &'k Kernel, plan: &'k Plan, flat: Option<u32>) -> Gen<'k> {
        Gen {
            k,
            plan,
            o: Out {
                depth: 4,
                ..Out::default()
            },
            line: 0,
            specials: BTreeSet::new(),
            next_tmp: 0,
            proofs: no_ranges(),
            flat,
            fast: false,
            next: "bz_next".into(),
            strip: None,
            lane_outputs: false,
            run_local: Vec::new(),
            wide: None,
            wide_in_range: Vec::new(),
            aliases: &k.facts().aliases,
            varying: Vec::new(),
            held: Vec::new(),
            active: None,
            masks: 0,
            divergent: false,
            catch: None,
            next_catch: 0,
            private: private::add_only(k, &plan.slots),
            hoist_scopes: Vec::new(),
            thread_counters: false,
            uniform_vals: Vec::new(),
            blkpos_vars: widen::blkpos_vars(k),
            thread_range: None,
            in_range: Vec::new(),
            funcs: &k.calls.funcs,
            in_fn: false,
        }
    }
}

impl Gen<'_> {
    /// A fresh temporary name.
    pub fn tmp(&mut self) -> String {
        self.next_tmp += 1;
        format!("bz_i{}", self.next_tmp)
    }

    /// Component `c` of special `sp` as a scalar C expression.
    pub fn special_part(&mut self, sp: Special, c: usize) -> String {
        let kind = match sp {
            Special::Pos => 0,
            Special::BlkPos => 1,
            Special::BlkDim => 2,
            Special::BlkIdx => 3,
            Special::BlkCnt => 4,
            Special::WarpSize => return "32".into(),
        };
        self.specials.insert((kind, c as u8));
        format!("{}{c}", SPECIAL_NAMES[kind as usize])
    }

    /// A whole special: a scalar for rank 1, else a vector of its components.
    pub fn special(&mut self, sp: Special) -> String {
        let r = self.k.rank.clamp(1, 4) as usize;
        if sp == Special::WarpSize || r == 1 {
            return self.special_part(sp, 0);
        }
        let parts: Vec<String> = (0..r).map(|c| self.special_part(sp, c)).collect();
        format!("bz_v<i32, {r}>{{{{{}}}}}", parts.join(", "))
    }

    /// Declarations of the specials used, for the current thread (components `pos0..`
    /// are in scope).
    pub(crate) fn special_decls(&self) -> String {
        let mut s = String::new();
        for &(kind, c) in &self.specials {
            let c = c as usize;
            let v = match kind {
                0 => continue,
                1 => format!("(i32)(bz_pos{c} % bz_kb{c})"),
                2 => format!("(i32)bz_kb{c}"),
                3 => format!("(i32)(bz_pos{c} / bz_kb{c})"),
                _ => format!("(i32)(bz_kd{c} / bz_kb{c})"),
            };
            let _ = writeln!(
                s,
                "        const i32 {}{c} = {v};",
                SPECIAL_NAMES[kind as usize]
            );
        }
        s
    }

    /// The prelude, the entry point's opening and the launch-wide values: extents,
    /// global and dynamic arrays, parameters.
    pub(crate) fn header(&self) -> String {
        let k = self.k;
        let r = k.rank.clamp(1, 4) as usize;
        let mut s = String::new();
        s.push_str(prelude());
        s.push_str(&self.functions_text());
        s.push_str(&self.private_helpers());
        let _ = writeln!(s, "\n// ---- kernel {} (rank {r}) ----", k.name);
        s.push_str("extern \"C\" __attribute__((visibility(\"default\")))\n");
        s.push_str("int bz_run(const bz_call* bz_c, i64 bz_lo, i64 bz_hi, u8* bz_parts, bz_err* bz_out) {\n");
        s.push_str("  bz_err bz_e = {};\n  i64 bz_item = bz_lo;\n");
        for c in 0..r {
            let _ = writeln!(
                s,
                "  const i64 bz_kd{c} = bz_c->kd[{c}], bz_kb{c} = bz_c->kb[{c}];"
            );
        }
        // Global arrays: data pointer and extents, copied into locals.
        for (a, slot) in self.plan.slots.iter().enumerate() {
            let Ty::Array(t) = k.arrays[a].ty else {
                continue;
            };
            let name = self.arr_name(a as u32);
            let ct = spell::scalar(t.elem);
            match slot {
                SlotKind::Global => {
                    let _ = writeln!(s, "  {ct}* const {name} = ({ct}*)bz_c->arrs[{a}].data;");
                    for d in 0..t.rank as usize {
                        let _ = writeln!(s, "  const i64 {name}_d{d} = bz_c->arrs[{a}].dims[{d}];");
                    }
                }
                SlotKind::Local => {
                    let _ = writeln!(s, "  alignas(16) u8 {name}_buf[32768];");
                    let _ = writeln!(s, "  {ct}* const {name} = ({ct}*){name}_buf;");
                }
                SlotKind::Shared => {
                    let dims: Vec<String> =
                        (0..t.rank).map(|d| format!("{name}_d{d} = 0")).collect();
                    let _ = writeln!(s, "  {ct}* {name} = nullptr; u64 {name}_cap = 0;");
                    let _ = writeln!(s, "  i64 {};", dims.join(", "));
                }
                SlotKind::Unused => {}
            }
        }
        // Parameters bound to variables: read once from the parameter block.
        for (i, p) in k.params.iter().enumerate() {
            if let Bind::Var(v) = p.bind {
                let t = spell::ty(k.vars[v as usize].ty);
                let off = self.plan.param_offsets[i];
                let _ = writeln!(
                    s,
                    "  {t} bz_p{i}; memcpy(&bz_p{i}, bz_c->params + {off}, sizeof(bz_p{i}));"
                );
            }
        }
        s.push_str(&self.private_decls());
        s
    }

    /// The initial value of variable `%i`: its parameter's, else zero.
    pub(crate) fn var_init(&self, i: usize) -> String {
        self.k
            .params
            .iter()
            .position(|p| p.bind == Bind::Var(i as u32))
            .map_or("{}".to_string(), |p| format!("bz_p{p}"))
    }

    /// `bz_finish(partials, items, out)`: folds the partials of every item in order,
    /// then applies each output's final op (`-=` negates, `/=` inverts, `^=` gives 1).
    pub(crate) fn finish_fn(&self, s: &mut String) {
        let k = self.k;
        s.push_str("\nextern \"C\" __attribute__((visibility(\"default\")))\n");
        s.push_str("void bz_finish(const u8* bz_parts, i64 bz_items, u8* bz_res) {\n");
        let n = k.outputs.len();
        for (i, o) in k.outputs.iter().enumerate() {
            let t = spell::scalar(o.ty);
            let op = spell::op_code(crate::names::partial_op(o.op));
            let _ = writeln!(s, "  {{\n    {t} a = bz_identity<{op}, {t}>();");
            let _ = writeln!(
                s,
                "    for (i64 i = 0; i < bz_items; i++) {{ {t} p; memcpy(&p, bz_parts + (i * {n} + {i}) * {PARTIAL_BYTES}, sizeof(p)); a = bz_combine<{op}, {t}>(a, p); }}"
            );
            let fin = match o.op {
                AtomicOp::Sub => format!("a = bz_combine<1, {t}>({t}{{}}, a);"),
                AtomicOp::Div => format!("a = bz_combine<3, {t}>(bz_cast<{t}>(1), a);"),
                AtomicOp::Pow => format!("a = bz_cast<{t}>(1);"),
                _ => String::new(),
            };
            let _ = writeln!(
                s,
                "    {fin}\n    memcpy(bz_res + {i} * {PARTIAL_BYTES}, &a, sizeof(a));\n  }}"
            );
        }
        s.push_str("}\n");
    }

    /// The C name of variable `%v` (under loop fission, a local copy of the current
    /// thread's element of the per-thread array `<name>_a`).
    pub fn var_name(&self, v: u32) -> String {
        self.var_base(v)
    }

    /// The C declaration name of variable `%v`.
    pub fn var_base(&self, v: u32) -> String {
        let name = self.k.vars.get(v as usize).map_or("", |d| d.name.as_str());
        format!("v{v}_{}", spell::ident(name))
    }

    /// The C name of array slot `@a` (its data pointer).
    pub fn arr_name(&self, a: u32) -> String {
        arr_ident(self.k, a)
    }
}
