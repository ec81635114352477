//! Expressions of the random kernels (`gen.rs`), typed by construction: reads in each
//! input's boundary mode, leaves, and operators per kind of value.

use crate::gen::{int_name, Gen, Mode, INPUTS, INTS, K};
use rand::Rng;

impl Gen {
    /// A read of input `k` (`ai`, `af`, ...) at a position its mode allows.
    fn read(&mut self, k: K) -> String {
        let idx = INPUTS
            .iter()
            .position(|(_, _, kk)| *kk == k)
            .expect("an input per kind");
        let name = INPUTS[idx].0;
        let mode = self.modes[idx];
        let at = match mode {
            Mode::Unchecked => "pos".to_string(),
            Mode::Checked if self.chance(0.8) => "pos".to_string(),
            _ => match self.rng.random_range(0..5) {
                0 => "pos".to_string(),
                1 => format!("pos + {}", self.rng.random_range(1..4)),
                2 => format!("pos - {}", self.rng.random_range(1..4)),
                3 => "numel(ai) - 1 - pos".to_string(),
                _ => self.expr(K::I, 1),
            },
        };
        format!("{name}[{at}]")
    }

    fn leaf(&mut self, k: K) -> String {
        // A typed local of this kind, now and then.
        let locals: Vec<String> = self
            .typed
            .iter()
            .filter(|(_, kk)| *kk == k)
            .map(|(t, _)| t.clone())
            .collect();
        if !locals.is_empty() && self.chance(0.3) {
            return self.pick(&locals).clone();
        }
        match k {
            K::I8 | K::I16 | K::U16 | K::U32 | K::U64 => {
                let name = int_name(k);
                match self.rng.random_range(0..3) {
                    0 => format!(
                        "{name}({})",
                        self.pick(&[
                            "0",
                            "1",
                            "-1",
                            "127",
                            "-128",
                            "255",
                            "32767",
                            "-32768",
                            "65535",
                            "4294967295",
                            "100000"
                        ])
                    ),
                    1 => format!("{name}({})", self.leaf(K::I)),
                    _ => format!("{name}({})", self.read(K::L)),
                }
            }
            K::I => match self.rng.random_range(0..5) {
                0 => "pos".into(),
                1 => self
                    .pick(&["0", "1", "2", "-3", "5", "31", "32", "-33", "2147483647"])
                    .to_string(),
                2 if !self.vars.is_empty() => {
                    let i = self.rng.random_range(0..self.vars.len());
                    self.vars[i].clone()
                }
                _ => self.read(K::I),
            },
            K::F => match self.rng.random_range(0..3) {
                0 => self
                    .pick(&["0.5", "-1.25", "3", "0", "1e10", "-0.1"])
                    .to_string(),
                _ => self.read(K::F),
            },
            K::C => match self.rng.random_range(0..3) {
                0 => self.pick(&["(1 + 2i)", "1i", "(0.5 - 1.5i)"]).to_string(),
                _ => self.read(K::C),
            },
            K::U => match self.rng.random_range(0..3) {
                0 => format!("uint8({})", self.pick(&["0", "1", "7", "200", "255"])),
                _ => self.read(K::U),
            },
            K::L => match self.rng.random_range(0..3) {
                0 => format!("int64({})", self.pick(&["0", "1", "-7", "40", "63"])),
                _ => self.read(K::L),
            },
            K::B => {
                let (a, b) = (self.leaf(K::I), self.leaf(K::I));
                format!("({a} < {b})")
            }
        }
    }

    /// An expression of kind `k`, at most `d` operators deep.
    pub(crate) fn expr(&mut self, k: K, d: u32) -> String {
        if d == 0 || self.chance(0.25) {
            return self.leaf(k);
        }
        let d = d - 1;
        let e = |g: &mut Gen, k: K| g.expr(k, d);
        let any_int = |g: &mut Gen| g.pick(&INTS).0;
        if self.mixed && matches!(k, K::I | K::L | K::F) && self.chance(0.2) {
            // Arithmetic mixing ints of any width and sign, converted to this kind.
            let (a, b) = (any_int(self), any_int(self));
            let op = *self.pick(&["+", "-", "*", "/"]);
            let conv = match k {
                K::I => "int",
                K::L => "int64",
                _ => "float",
            };
            let (x, y) = (e(self, a), e(self, b));
            if op == "/" && k != K::F {
                return format!("{conv}(floor(({x}) / ({y})))");
            }
            return format!("{conv}(({x}) {op} ({y}))");
        }
        match k {
            K::I8 | K::I16 | K::U16 | K::U32 | K::U64 => {
                let name = int_name(k);
                match self.rng.random_range(0..9) {
                    0 => format!("({} + {})", e(self, k), e(self, k)),
                    1 => format!("({} - {})", e(self, k), e(self, k)),
                    2 => format!("({} * {})", e(self, k), e(self, k)),
                    3 => format!(
                        "{}({}, {})",
                        self.pick(&["min", "max", "mod"]),
                        e(self, k),
                        e(self, k)
                    ),
                    4 => format!("{name}({})", e(self, K::I)),
                    5 => format!("{name}({})", e(self, K::F)),
                    6 => format!("{name}({})", e(self, K::L)),
                    7 => {
                        let from = any_int(self);
                        format!("{name}({})", e(self, from))
                    }
                    _ => format!("({} ? {} : {})", e(self, K::B), e(self, k), e(self, k)),
                }
            }
            K::I => match self.rng.random_range(0..14) {
                0 => format!("({} + {})", e(self, K::I), e(self, K::I)),
                1 => format!("({} - {})", e(self, K::I), e(self, K::I)),
                2 => format!("({} * {})", e(self, K::I), e(self, K::I)),
                3 => format!("mod({}, {})", e(self, K::I), e(self, K::I)),
                4 => format!(
                    "{}({}, {})",
                    self.pick(&["min", "max"]),
                    e(self, K::I),
                    e(self, K::I)
                ),
                5 => format!(
                    "{}({})",
                    self.pick(&["abs", "-", "sign", "floor", "round"]),
                    e(self, K::I)
                ),
                6 | 7 => format!(
                    "{}({}, {})",
                    self.pick(&["shl", "shr"]),
                    e(self, K::I),
                    e(self, K::I)
                ),
                8 => format!(
                    "({} ? {} : {})",
                    e(self, K::B),
                    e(self, K::I),
                    e(self, K::I)
                ),
                9 => format!("int({})", e(self, K::F)),
                10 => format!("int({})", e(self, K::U)),
                11 => format!("int({})", e(self, K::L)),
                12 => format!("int({})", e(self, K::B)),
                _ => format!(
                    "periodize({}, {})",
                    e(self, K::I),
                    self.pick(&["3", "7", "1"])
                ),
            },
            K::F => match self.rng.random_range(0..15) {
                0 => format!("({} + {})", e(self, K::F), e(self, K::F)),
                1 => format!("({} - {})", e(self, K::F), e(self, K::F)),
                2 => format!("({} * {})", e(self, K::F), e(self, K::F)),
                3 => format!("({} / {})", e(self, K::F), e(self, K::F)),
                4 => format!(
                    "{}({})",
                    self.pick(&["abs", "floor", "ceil", "round", "sign", "frac", "-"]),
                    e(self, K::F)
                ),
                5 => format!(
                    "{}({}, {})",
                    self.pick(&["min", "max", "mod"]),
                    e(self, K::F),
                    e(self, K::F)
                ),
                6 => format!("sqrt(abs({}))", e(self, K::F)),
                7 => format!("({}) ^ 2", e(self, K::F)),
                8 => {
                    let f = *self.pick(&["real", "imag", "abs"]);
                    self.inexact |= f == "abs";
                    format!("{f}({})", e(self, K::C))
                }
                9 => format!(
                    "({} ? {} : {})",
                    e(self, K::B),
                    e(self, K::F),
                    e(self, K::F)
                ),
                10 => format!("float({})", e(self, K::I)),
                11 => {
                    let b = e(self, K::B);
                    let b2 = e(self, K::B);
                    self.pick(&[
                        format!("float(-({b}))"),
                        format!("float(max({b}, {b2}))"),
                        // Not `mod(b, b2)`: a host comparison is a real, so a false
                        // divisor gives NaN there and 0 in kernels (ARCHITECTURE.md).
                        format!("float(mod({b}, 2))"),
                        format!("float(round(min({b}, {b2})))"),
                    ])
                    .clone()
                }
                // Transcendental functions, powers and saturation (issue 32 items 7, 8,
                // 11): the same bits on every path, the native tier built without the
                // vector math library (`--deterministic`, set for the whole test).
                13 => format!(
                    "{}({})",
                    self.pick(&["exp", "sin", "cos", "tanh", "atan", "log", "saturate"]),
                    e(self, K::F)
                ),
                14 => match self.rng.random_range(0..3) {
                    0 => format!("atan2({}, {})", e(self, K::F), e(self, K::F)),
                    1 => format!("({}) ^ ({})", e(self, K::F), e(self, K::F)),
                    _ => format!(
                        "({}) ^ {}",
                        e(self, K::F),
                        self.pick(&["0.5", "1.5", "-1", "3", "-0.5"])
                    ),
                },
                _ => format!(
                    "float({}({}))",
                    self.pick(&["isnan", "isinf"]),
                    e(self, K::F)
                ),
            },
            K::C => match self.rng.random_range(0..7) {
                0 => format!("({} + {})", e(self, K::C), e(self, K::C)),
                1 => format!("({} - {})", e(self, K::C), e(self, K::C)),
                2 => {
                    self.inexact = true;
                    format!("({} * {})", e(self, K::C), e(self, K::C))
                }
                3 => {
                    self.inexact = true;
                    format!("({} / {})", e(self, K::C), e(self, K::C))
                }
                4 => format!("conj({})", e(self, K::C)),
                5 => format!(
                    "({} ? {} : {})",
                    e(self, K::B),
                    e(self, K::C),
                    e(self, K::C)
                ),
                _ => format!("({} + 0i)", e(self, K::F)),
            },
            K::U => match self.rng.random_range(0..6) {
                0 => format!("({} + {})", e(self, K::U), e(self, K::U)),
                1 => format!("({} - {})", e(self, K::U), e(self, K::U)),
                2 => format!("({} * {})", e(self, K::U), e(self, K::U)),
                3 => format!(
                    "{}({}, {})",
                    self.pick(&["shl", "shr", "min", "max", "mod"]),
                    e(self, K::U),
                    e(self, K::U)
                ),
                4 => format!("uint8({})", e(self, K::I)),
                _ => format!("uint8({})", e(self, K::F)),
            },
            K::L => match self.rng.random_range(0..5) {
                0 => format!("({} + {})", e(self, K::L), e(self, K::L)),
                1 => format!("({} * {})", e(self, K::L), e(self, K::L)),
                2 => format!(
                    "{}({}, {})",
                    self.pick(&["shl", "shr", "mod"]),
                    e(self, K::L),
                    e(self, K::L)
                ),
                3 => format!("int64({})", e(self, K::I)),
                _ => format!("({} - {})", e(self, K::L), e(self, K::L)),
            },
            K::B => match self.rng.random_range(0..8) {
                0 | 1 => {
                    let op = *self.pick(&["<", ">", "<=", ">=", "==", "!="]);
                    format!("({} {op} {})", e(self, K::I), e(self, K::I))
                }
                2 => {
                    let op = *self.pick(&["<", ">", "<=", ">=", "==", "!="]);
                    format!("({} {op} {})", e(self, K::F), e(self, K::F))
                }
                3 => {
                    let op = *self.pick(&["<", ">", "==", "!="]);
                    format!("({} {op} {})", e(self, K::C), e(self, K::C))
                }
                4 => format!("!({})", e(self, K::B)),
                5 => format!("({} && {})", e(self, K::B), e(self, K::B)),
                6 => format!("({} || {})", e(self, K::B), e(self, K::B)),
                _ => format!("({} == {})", e(self, K::U), e(self, K::U)),
            },
        }
    }
}
