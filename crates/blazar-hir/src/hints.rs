//! Hints for an undefined name: the bundled module that defines it, the Quasar spelling
//! of a MATLAB function, or the closest names in scope ("did you mean ...?").

use crate::lower::Lowerer;

/// What the resolver may suggest besides the names of the program itself.
#[derive(Clone, Copy, Default)]
pub struct Hints<'a> {
    /// Every builtin's name.
    pub builtins: &'a [&'a str],
    /// The public functions of the bundled modules: (function, module file).
    pub library: &'a [(&'a str, &'a str)],
}

/// MATLAB functions Quasar spells otherwise: (MATLAB name, what to write instead).
const MATLAB: &[(&str, &str)] = &[
    ("medfilt2", "`immedfilt(x, r)` (r the radius)"),
    ("imgaussfilt", "`gaussian_filter(x, sigma)`"),
    (
        "length",
        "`numel(x)` for a vector, `max(size(x))` as MATLAB's",
    ),
    ("fft", "`fft1(x)`"),
    ("ifft", "`ifft1(x)`"),
    ("fprintf", "`printf(format, ...)`"),
    ("imagesc", "`imshow(x, [min(x), max(x)])`"),
    ("strcmp", "`a == b` (strings compare with `==`)"),
    ("num2cell", "a `cell(n)` filled in a loop"),
    ("ndgrid", "`meshgrid(y, x)` (the outputs swapped)"),
    ("isfield", "`isdefined(o.name)`"),
    ("mat2str", "`num2str(x)`"),
];

impl<'a> Lowerer<'a> {
    /// Notes for an undefined `name`, most useful first.
    pub(crate) fn undefined_notes(&self, name: &str) -> Vec<String> {
        let hints = self.hints;
        if let Some((_, file)) = hints.library.iter().find(|(f, _)| *f == name) {
            return vec![format!(
                "`{name}` is defined in {file}: add `import \"{file}\"`"
            )];
        }
        if let Some((_, q)) = MATLAB.iter().find(|(m, _)| *m == name) {
            let mut note = format!("`{name}` is MATLAB's; in Quasar write {q}");
            if let Some((_, file)) = q
                .trim_start_matches('`')
                .split('(')
                .next()
                .and_then(|f| hints.library.iter().find(|(n, _)| *n == f))
            {
                note.push_str(&format!(", after `import \"{file}\"`"));
            }
            return vec![note];
        }
        let mut names: Vec<&str> = Vec::new();
        let mut scope = Some(self.cur);
        while let Some(i) = scope {
            let s = &self.scopes.stack[i];
            names.extend(s.local_names.iter().map(String::as_str));
            names.extend(s.nested.keys().map(String::as_str));
            scope = s.parent;
        }
        names.extend(self.scopes.globals.keys().map(String::as_str));
        names.extend(self.groups.keys().map(String::as_str));
        names.extend(self.classes.keys().map(String::as_str));
        names.extend(["pi", "true", "false", "inf", "Inf", "nan", "NaN", "eps"]);
        names.extend(hints.builtins.iter().copied());
        names.extend(hints.library.iter().map(|(f, _)| *f));
        let best = blazar_diagnostics::suggest::closest(name, names);
        if best.is_empty() {
            return vec![];
        }
        let shown: Vec<String> = best
            .iter()
            .take(3)
            .map(|c| match hints.library.iter().find(|(f, _)| f == c) {
                Some((_, file)) => format!("`{c}` (defined in {file}: add `import \"{file}\"`)"),
                None => format!("`{c}`"),
            })
            .collect();
        vec![format!("did you mean {}?", shown.join(" or "))]
    }
}
