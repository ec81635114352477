//! The bundled standard library: modules that `import "name.q"` resolves to when no
//! file of that name is next to the program, and the .NET plugins (`"Quasar.UI.dll"`),
//! with names known to come from each: those whose functions are all builtins are
//! provided, the others are not.

/// Bundled modules by file name, with their text.
const MODULES: &[(&str, &str)] = &[
    ("system.q", include_str!("../stdlib/system.q")),
    ("inttypes.q", include_str!("../stdlib/inttypes.q")),
    ("linalg.q", include_str!("../stdlib/linalg.q")),
    ("imfilter.q", include_str!("../stdlib/imfilter.q")),
    ("immedfilt.q", include_str!("../stdlib/immedfilt.q")),
    ("immorphology.q", include_str!("../stdlib/immorphology.q")),
    ("imresize.q", include_str!("../stdlib/imresize.q")),
    (
        "colortransform.q",
        include_str!("../stdlib/colortransform.q"),
    ),
    (
        "multirestransforms.q",
        include_str!("../stdlib/multirestransforms.q"),
    ),
    ("dtcwt.q", include_str!("../stdlib/dtcwt.q")),
    ("steerable.q", include_str!("../stdlib/steerable.q")),
    ("colored_noise.q", include_str!("../stdlib/colored_noise.q")),
    ("imboundary.q", include_str!("../stdlib/imboundary.q")),
    (
        "parallelblocks.q",
        include_str!("../stdlib/parallelblocks.q"),
    ),
];

/// Functions known to come from each .NET plugin: a use of one of them is reported as
/// coming from the plugin rather than as undefined. A plugin some of whose functions are
/// builtins is provided ([`plugin_provided`]): importing it is silent, and its names
/// that are not builtins are errors where used.
const PLUGINS: &[(&str, &[&str])] = &[
    (
        "Quasar.Video.dll",
        &[
            "vidopen",
            "vidreadframe",
            "vidseek",
            "sync_framerate",
            "vidwrite",
            "vidwriteframe",
            "vidclose",
        ],
    ),
    ("Sim2HDR.dll", &["hdr_imshow"]),
    ("exr_lib.dll", &["exrread", "exrwrite"]),
    ("Quasar.UI.dll", &["form", "subplot"]),
];

/// The text of bundled module `name` (`"system.q"`), if Blazar has it.
pub fn module(name: &str) -> Option<&'static str> {
    MODULES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, text)| *text)
}

/// The file names of the bundled modules (`"imfilter.q"`), for completion of imports.
pub fn module_names() -> impl Iterator<Item = &'static str> {
    MODULES.iter().map(|(n, _)| *n)
}

/// Every bundled module: (file name, text).
pub fn modules() -> &'static [(&'static str, &'static str)] {
    MODULES
}

/// The name of a public (not kernel, not device) function defined on this line.
pub fn function_name(line: &str) -> Option<String> {
    let rest = line.strip_prefix("function")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    // Outputs: `y =`, `[a, b] =`, `[] =`.
    let rest = match rest.find('=') {
        Some(eq) if rest.find('(').is_none_or(|p| eq < p) => &rest[eq + 1..],
        _ => rest,
    };
    let mut rest = rest.trim_start();
    loop {
        let word_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..word_end];
        if word.starts_with("__") && word.ends_with("__") && word.len() > 4 {
            if matches!(word, "__kernel__" | "__device__") {
                return None;
            }
            rest = rest[word_end..].trim_start();
            continue;
        }
        return (!word.is_empty()).then(|| word.to_string());
    }
}

/// The public functions of the bundled modules, (name, module file): every function
/// that is not a kernel or device function and is not marked `% internal` (the last
/// line of the comment above it). An undefined name that is one of them gets the hint
/// to import its module.
pub fn library_functions() -> &'static [(&'static str, &'static str)] {
    static ALL: std::sync::OnceLock<Vec<(&'static str, &'static str)>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut out: Vec<(&'static str, &'static str)> = Vec::new();
        for (file, text) in MODULES {
            let mut prev = "";
            for line in text.lines() {
                let t = line.trim();
                if let Some(name) = function_name(t) {
                    if prev != "% internal" && !out.iter().any(|(n, _)| *n == name) {
                        out.push((Box::leak(name.into_boxed_str()), file));
                    }
                }
                prev = t;
            }
        }
        out
    })
}

/// Whether an import names a .NET plugin.
pub fn is_plugin(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".dll")
}

/// Whether Blazar provides plugin `name`: some of its known names are builtins
/// (`Quasar.UI.dll`'s `form`, `Quasar.Video.dll`'s `vidopen`). Its import then does not warn.
pub fn plugin_provided(name: &str) -> bool {
    plugin_names(name)
        .iter()
        .any(|n| blazar_runtime::builtins::lookup(n).is_some())
}

/// The names known to come from plugin `name`.
pub fn plugin_names(name: &str) -> &'static [&'static str] {
    PLUGINS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map_or(&[], |(_, names)| *names)
}

#[cfg(test)]
mod tests {
    #[test]
    fn video_and_hdr_plugins_are_provided() {
        for p in ["Quasar.Video.dll", "sim2hdr.dll", "exr_lib.dll"] {
            assert!(super::plugin_provided(p), "{p}");
        }
        assert!(!super::plugin_provided("Quasar.Runtime.dll"));
        assert!(!super::plugin_provided("Other.dll"));
    }

    #[test]
    fn bundled_modules_parse() {
        for (name, text) in super::MODULES {
            let (_, diags) = blazar_syntax::parse(text, blazar_diagnostics::FileId(0));
            assert!(diags.is_empty(), "{name}: {diags:?}");
        }
    }
}
