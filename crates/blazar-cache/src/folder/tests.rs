//! Published folders: sealed and renamed into place whole, verified before use, and
//! removed when anything in them was not written by the publisher.

use crate::{Store, MANIFEST};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn root(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "blazar-cache-folder-{name}-{}-{}",
        std::process::id(),
        crate::hex(&crate::random::<4>().unwrap())
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn two_files(dir: &Path) -> Result<(), String> {
    std::fs::write(dir.join("prelude.h"), b"int x;").map_err(|e| e.to_string())?;
    std::fs::write(dir.join("prelude.h.gch"), b"binary").map_err(|e| e.to_string())
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn a_published_folder_verifies_and_leaves_nothing_else() {
    let r = root("publish");
    let s = Store::open(&r, "native").unwrap();
    assert_eq!(s.verified_dir("pch-1"), None);
    let p = s.publish_dir("pch-1", two_files).unwrap();
    assert_eq!(p, s.path("pch-1"));
    assert_eq!(names(&p), vec![MANIFEST, "prelude.h", "prelude.h.gch"]);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&p), 0o700);
    assert_eq!(mode(&p.join("prelude.h.gch")), 0o600);
    assert_eq!(s.verified_dir("pch-1"), Some(p.clone()));
    // No scratch folder is left in the store.
    assert_eq!(names(s.dir()), vec!["pch-1"]);
    // A second publisher finds the first one's folder and keeps it.
    let again = s
        .publish_dir("pch-1", |d| {
            std::fs::write(d.join("other"), b"?").map_err(|e| e.to_string())
        })
        .unwrap();
    assert_eq!(again, p);
    assert_eq!(names(&p), vec![MANIFEST, "prelude.h", "prelude.h.gch"]);
    assert_eq!(names(s.dir()), vec!["pch-1"]);
    // A failing build publishes nothing.
    assert!(s.publish_dir("pch-2", |_| Err("no".into())).is_err());
    assert_eq!(names(s.dir()), vec!["pch-1"]);
    let _ = std::fs::remove_dir_all(&r);
}

/// A way to spoil a published folder, named.
type Tamper = (&'static str, fn(&Path));

#[test]
fn a_changed_or_forged_folder_is_removed() {
    let r = root("forged");
    let s = Store::open(&r, "native").unwrap();
    let tamper: [Tamper; 5] = [
        ("flipped", |p| {
            std::fs::write(p.join("prelude.h.gch"), b"binarY").unwrap()
        }),
        ("truncated", |p| {
            std::fs::write(p.join("prelude.h.gch"), b"bin").unwrap()
        }),
        ("added", |p| std::fs::write(p.join("extra"), b"").unwrap()),
        ("removed", |p| {
            std::fs::remove_file(p.join("prelude.h")).unwrap()
        }),
        ("unsealed", |p| {
            std::fs::remove_file(p.join(MANIFEST)).unwrap()
        }),
    ];
    for (what, f) in tamper {
        let p = s.publish_dir("pch", two_files).unwrap();
        f(&p);
        assert_eq!(s.verified_dir("pch"), None, "{what}");
        assert!(!p.exists(), "{what}: the bad folder is removed");
    }
    // Made with another key (the same files, sealed by someone else's cache).
    let other = Store::open(&root("other"), "native").unwrap();
    let theirs = other.publish_dir("pch", two_files).unwrap();
    std::fs::rename(&theirs, s.path("pch")).unwrap();
    assert_eq!(s.verified_dir("pch"), None);
    // A link to an authentic folder elsewhere is removed, its target untouched.
    let p = s.publish_dir("pch", two_files).unwrap();
    let moved = r.join("elsewhere");
    std::fs::rename(&p, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, s.path("pch")).unwrap();
    assert_eq!(s.verified_dir("pch"), None);
    assert!(std::fs::symlink_metadata(s.path("pch")).is_err());
    assert!(moved.join("prelude.h.gch").exists());
    // A folder others can write is refused.
    let p = s.publish_dir("pch", two_files).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o777)).unwrap();
    assert_eq!(s.verified_dir("pch"), None);
    // A file in the way is removed; publishing then succeeds.
    std::fs::write(s.path("pch"), b"junk").unwrap();
    let p = s.publish_dir("pch", two_files).unwrap();
    assert_eq!(s.verified_dir("pch"), Some(p));
    let _ = std::fs::remove_dir_all(&r);
    let _ = std::fs::remove_dir_all(other.dir().parent().unwrap());
}
