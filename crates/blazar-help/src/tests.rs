//! The registry's own checks: every function documented, the reference up to date.

use super::*;

#[test]
fn everything_is_documented() {
    let p = problems();
    assert!(p.is_empty(), "{} problems:\n{}", p.len(), p.join("\n"));
}

#[test]
fn every_builtin_has_an_entry_with_an_example() {
    for b in blazar_runtime::builtins::all() {
        let e = doc(b.name).unwrap_or_else(|| panic!("no entry for `{}`", b.name));
        assert!(!e.example.is_empty() && !e.text.is_empty(), "{}", b.name);
    }
}

#[test]
fn language_entries_are_language_functions() {
    for (name, _) in language::DOCS {
        assert!(
            *name == "print" || blazar_hir::Intrinsic::from_name(name).is_some(),
            "`{name}` is not an intrinsic"
        );
    }
}

#[test]
fn lookup_and_search() {
    assert_eq!(doc("sum").unwrap().module, "reduce");
    assert_eq!(doc("atan2").unwrap().module, "math");
    assert!(doc("no_such_function").is_none());
    let hits: Vec<&str> = search("fourier").iter().map(|e| e.name.as_str()).collect();
    assert!(hits.contains(&"fft2"), "{hits:?}");
    // Names first.
    assert_eq!(search("sort")[0].name, "sort");
    assert_eq!(library_module_of("imfilter"), Some("imfilter.q"));
    assert_eq!(library_module_of("sum"), None);
    let r = doc("imfilter").unwrap().render();
    assert!(r.contains("import \"imfilter.q\""), "{r}");
}

#[test]
fn library_blocks_parse() {
    let text = "% internal\nfunction y = helper(x)\n    y = x\nend\n\
                % twice(x)\n%\n% Twice x.\n%\n% Example:\n%     print twice(2)\n% Output:\n%     4\n\
                function y = twice(x)\n    y = 2 * x\nend\n\
                function y = bare(x)\n    y = x\nend\n\
                function [] = __kernel__ k(pos : int)\nend\n";
    let (entries, problems) = library::parse_module("t.q", text);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].name, "twice");
    assert_eq!(entries[0].example, "print twice(2)");
    assert_eq!(entries[0].output, "4");
    assert_eq!(entries[0].program(), "import \"t.q\"\nprint twice(2)");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("`bare`"), "{problems:?}");
}

/// The committed reference is what the registry generates (`BLAZAR_BLESS=1` rewrites it).
#[test]
fn reference_is_up_to_date() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/reference");
    let bless = std::env::var_os("BLAZAR_BLESS").is_some();
    let mut stale = Vec::new();
    let pages = reference::pages();
    for (name, text) in &pages {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            if bless {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, text).unwrap();
            } else {
                stale.push(name.clone());
            }
        }
    }
    for f in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let n = f.file_name().to_string_lossy().to_string();
        if !pages.iter().any(|(p, _)| *p == n) {
            stale.push(format!("{n} (no such module)"));
        }
    }
    assert!(
        stale.is_empty(),
        "docs/reference is out of date ({}): run `BLAZAR_BLESS=1 cargo test -p blazar-help` \
         or `blazar help --reference docs/reference`",
        stale.join(", ")
    );
}
