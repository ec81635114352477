//! The native kernel cache runs nothing it did not write (issue 16): a forged entry (a
//! well-formed entry whose MAC was computed without this user's key), a link planted
//! at an entry, a cache folder others can write or another user owns: each is refused,
//! the kernel is rebuilt and gives the right answer, and the planted library's
//! constructor never runs (it would leave a marker file).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const PROGRAM: &str = "\
function [] = __kernel__ twice(y : vec, pos : int)
    y[pos] = 2 * pos + 1
endfunction
y = zeros(6)
parallel_do(6, y, twice)
print y
";
const WANT: &str = "[1,3,5,7,9,11]\n";

fn have_compiler() -> bool {
    Command::new("c++")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("blazar-cache-trust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("p.q"), PROGRAM).unwrap();
    d
}

/// Runs the program on the native tier with cache root `root`: (stdout, stderr).
fn run(dir: &Path, root: &Path) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu", "--cpu-tier", "native"])
        .arg(dir.join("p.q"))
        .env("BLAZAR_CACHE_DIR", root)
        .output()
        .expect("runs blazar");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), err)
}

/// The one kernel entry of the native store under `root`.
fn entry(root: &Path) -> PathBuf {
    let entries: Vec<PathBuf> = std::fs::read_dir(root.join("native"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "kernel"))
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    entries[0].clone()
}

/// A shared object whose constructor writes `marker` and whose `bz_run` does nothing
/// (so the kernel would give zeros).
fn evil_object(dir: &Path, marker: &Path) -> Vec<u8> {
    let src = dir.join("evil.cpp");
    std::fs::write(
        &src,
        format!(
            "#include <cstdio>\n\
             __attribute__((constructor)) static void planted() {{\n\
                 FILE* f = std::fopen(\"{}\", \"w\"); if (f) {{ std::fputs(\"ran\", f); std::fclose(f); }}\n\
             }}\n\
             extern \"C\" __attribute__((visibility(\"default\"))) int bz_run(const void*, long, long, unsigned char*, void*) {{ return 0; }}\n\
             extern \"C\" __attribute__((visibility(\"default\"))) void bz_finish(const unsigned char*, long, unsigned char*) {{}}\n",
            marker.display()
        ),
    )
    .unwrap();
    let so = dir.join("evil.so");
    let ok = Command::new("c++")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&so)
        .arg(&src)
        .status()
        .unwrap();
    assert!(ok.success());
    std::fs::read(so).unwrap()
}

/// A forged copy of the entry at `real`: the same layout and source, the planted
/// object, and a MAC computed under a key the forger made (not the user's).
fn forge(dir: &Path, real: &Path, object: &[u8]) -> Vec<u8> {
    let bytes = std::fs::read(real).unwrap();
    let payload = &bytes[8 + 32..];
    let len = u64::from_le_bytes(payload[..8].try_into().unwrap()) as usize;
    let mut forged_payload = payload[..8 + len].to_vec();
    forged_payload.extend_from_slice(object);
    // The forger's own cache, with its own key, signs the entry under the same name.
    let forger = blazar_cache::Store::open(&dir.join("forger"), "native").unwrap();
    let name = real.file_name().unwrap().to_str().unwrap();
    forger.put(name, &forged_payload).unwrap();
    std::fs::read(forger.path(name)).unwrap()
}

#[test]
fn a_forged_entry_is_refused_and_rebuilt() {
    if !have_compiler() {
        eprintln!("skipped: no C++ compiler");
        return;
    }
    let dir = scratch("forged");
    let root = dir.join("cache");
    assert_eq!(run(&dir, &root).0, WANT);
    let real = entry(&root);
    let marker = dir.join("marker");
    let forged = forge(&dir, &real, &evil_object(&dir, &marker));
    std::fs::write(&real, &forged).unwrap();
    assert_eq!(run(&dir, &root).0, WANT, "the kernel is rebuilt");
    assert!(!marker.exists(), "the planted constructor ran");
    assert_ne!(
        std::fs::read(&real).unwrap(),
        forged,
        "the entry is rebuilt"
    );
    // The rebuilt entry is used as it is.
    assert_eq!(run(&dir, &root).0, WANT);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_link_planted_at_an_entry_is_not_followed() {
    if !have_compiler() {
        eprintln!("skipped: no C++ compiler");
        return;
    }
    let dir = scratch("link");
    let root = dir.join("cache");
    assert_eq!(run(&dir, &root).0, WANT);
    let real = entry(&root);
    let marker = dir.join("marker");
    // An entry elsewhere (forged), linked in at the entry's path.
    let outside = dir.join("outside.kernel");
    let forged = forge(&dir, &real, &evil_object(&dir, &marker));
    std::fs::write(&outside, &forged).unwrap();
    std::fs::remove_file(&real).unwrap();
    std::os::unix::fs::symlink(&outside, &real).unwrap();
    assert_eq!(run(&dir, &root).0, WANT);
    assert!(!marker.exists(), "the planted constructor ran");
    assert_eq!(
        std::fs::read(&outside).unwrap(),
        forged,
        "the link's target is untouched"
    );
    assert!(std::fs::symlink_metadata(&real).unwrap().is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cache_folder_others_can_write_is_refused() {
    if !have_compiler() {
        eprintln!("skipped: no C++ compiler");
        return;
    }
    let dir = scratch("open");
    let root = dir.join("cache");
    std::fs::create_dir(&root).unwrap();
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o777)).unwrap();
    let (out, err) = run(&dir, &root);
    assert_eq!(out, WANT);
    assert!(
        err.contains("not kept on disk") && err.contains("writable by others"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(&root).unwrap().count(),
        0,
        "nothing written there"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_cache_folder_another_user_owns_is_refused() {
    if !have_compiler() {
        eprintln!("skipped: no C++ compiler");
        return;
    }
    if blazar_cache::euid() != 0 {
        eprintln!("skipped: giving a folder to another user needs root");
        return;
    }
    let dir = scratch("foreign");
    let root = dir.join("cache");
    std::fs::create_dir(&root).unwrap();
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::os::unix::fs::chown(&root, Some(12345), Some(12345)).unwrap();
    let (out, err) = run(&dir, &root);
    assert_eq!(out, WANT);
    assert!(err.contains("owned by another user"), "{err}");
    assert_eq!(
        std::fs::read_dir(&root).unwrap().count(),
        0,
        "nothing written there"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_new_cache_is_private() {
    if !have_compiler() {
        eprintln!("skipped: no C++ compiler");
        return;
    }
    let dir = scratch("private");
    let root = dir.join("a").join("cache");
    assert_eq!(run(&dir, &root).0, WANT);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&root), 0o700);
    assert_eq!(mode(&root.join("native")), 0o700);
    assert_eq!(mode(&root.join("key")), 0o600);
    assert_eq!(mode(&entry(&root)), 0o600);
    let _ = std::fs::remove_dir_all(&dir);
}
