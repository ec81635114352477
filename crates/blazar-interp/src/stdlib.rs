//! The bundled standard library: modules that `import "name.q"` resolves to when no
//! file of that name is next to the program, and the .NET plugins (`"Quasar.UI.dll"`)
//! that Blazar does not provide, with names known to come from each.

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
];

/// Functions known to come from each .NET plugin: a use of one of them is reported as
/// coming from the plugin rather than as undefined.
const PLUGINS: &[(&str, &[&str])] = &[
    (
        "Quasar.Video.dll",
        &["vidopen", "vidclose", "vidreadframe", "vidwriteframe"],
    ),
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

/// Whether an import names a .NET plugin.
pub fn is_plugin(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".dll")
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
    fn bundled_modules_parse() {
        for (name, text) in super::MODULES {
            let (_, diags) = blazar_syntax::parse(text, blazar_diagnostics::FileId(0));
            assert!(diags.is_empty(), "{name}: {diags:?}");
        }
    }
}
