use super::*;
use std::os::unix::fs::PermissionsExt;

/// A fresh root under the temporary folder (removed by the caller).
fn root(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "blazar-cache-unit-{name}-{}-{}",
        std::process::id(),
        hex(&random::<4>().unwrap())
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().mode() & 0o7777
}

#[test]
fn entries_round_trip_in_private_folders_with_a_private_key() {
    let r = root("roundtrip");
    let s = Store::open(&r, "native").expect("a fresh root is trusted");
    assert_eq!(mode(&r), 0o700);
    assert_eq!(mode(s.dir()), 0o700);
    assert_eq!(mode(&r.join("key")), 0o600);
    assert_eq!(std::fs::metadata(r.join("key")).unwrap().len(), KEY as u64);
    assert_eq!(s.get("k1"), None);
    s.put("k1", b"payload").unwrap();
    assert_eq!(mode(&s.path("k1")), 0o600);
    assert_eq!(s.get("k1").as_deref(), Some(&b"payload"[..]));
    // A second opening shares the key.
    let again = Store::open(&r, "native").unwrap();
    assert_eq!(again.get("k1").as_deref(), Some(&b"payload"[..]));
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(s.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("k1")]);
    let _ = std::fs::remove_dir_all(&r);
}

#[test]
fn a_forged_or_moved_entry_is_refused_and_removed() {
    let r = root("forged");
    let s = Store::open(&r, "native").unwrap();
    s.put("good", b"real code").unwrap();
    // Forged without the key: the right layout, a tag computed with another key.
    let other = Store {
        key: [7; KEY],
        ..s.clone()
    };
    other.put("forged", b"evil code").unwrap();
    assert_eq!(s.get("forged"), None);
    assert!(!s.path("forged").exists(), "the forged entry is deleted");
    // An authentic entry copied under another name does not verify there.
    std::fs::copy(s.path("good"), s.path("moved")).unwrap();
    assert_eq!(s.get("moved"), None);
    // Another store's entries do not verify in this one.
    let cubin = Store::open(&r, "cubin").unwrap();
    std::fs::copy(s.path("good"), cubin.path("good")).unwrap();
    assert_eq!(cubin.get("good"), None);
    // Truncated and flipped entries.
    s.put("t", b"0123456789").unwrap();
    let bytes = std::fs::read(s.path("t")).unwrap();
    std::fs::write(s.path("t"), &bytes[..bytes.len() - 1]).unwrap();
    assert_eq!(s.get("t"), None);
    let mut flipped = bytes.clone();
    flipped[MAGIC.len() + TAG] ^= 1;
    std::fs::write(s.path("t"), &flipped).unwrap();
    assert_eq!(s.get("t"), None);
    assert_eq!(s.get("good").as_deref(), Some(&b"real code"[..]));
    let _ = std::fs::remove_dir_all(&r);
}

#[test]
fn a_link_at_an_entry_is_never_followed() {
    let r = root("link");
    let s = Store::open(&r, "cubin").unwrap();
    let victim = r.join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    // An authentic entry elsewhere, linked in: refused (and the link removed).
    s.put("real", b"code").unwrap();
    std::fs::rename(s.path("real"), r.join("outside")).unwrap();
    std::os::unix::fs::symlink(r.join("outside"), s.path("real")).unwrap();
    assert_eq!(s.get("real"), None);
    assert!(std::fs::symlink_metadata(s.path("real")).is_err());
    // Writing over a planted link replaces the link, never the file it points to.
    std::os::unix::fs::symlink(&victim, s.path("w")).unwrap();
    s.put("w", b"new").unwrap();
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert!(std::fs::symlink_metadata(s.path("w")).unwrap().is_file());
    assert_eq!(s.get("w").as_deref(), Some(&b"new"[..]));
    let _ = std::fs::remove_dir_all(&r);
}

#[test]
fn folders_others_can_write_or_own_are_refused() {
    // Writable by others.
    let r = root("open");
    std::fs::create_dir_all(&r).unwrap();
    std::fs::set_permissions(&r, std::fs::Permissions::from_mode(0o777)).unwrap();
    let e = Store::open(&r, "native").unwrap_err();
    assert!(e.contains("writable by others"), "{e}");
    assert!(
        !r.join("key").exists(),
        "nothing is written in a refused root"
    );
    // A store below a good root that others can write.
    std::fs::set_permissions(&r, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::create_dir(r.join("cubin")).unwrap();
    std::fs::set_permissions(r.join("cubin"), std::fs::Permissions::from_mode(0o775)).unwrap();
    assert!(Store::open(&r, "cubin").is_err());
    // A link to a folder others can write.
    let open = root("open-target");
    std::fs::create_dir_all(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let link = root("link-root");
    std::os::unix::fs::symlink(&open, &link).unwrap();
    assert!(Store::open(&link, "native").is_err());
    // Below a folder others can write (without the sticky bit).
    let nested = open.join("inner");
    let e = Store::open(&nested, "native").unwrap_err();
    assert!(e.contains("above it"), "{e}");
    // A key others can read.
    let k = root("key");
    Store::open(&k, "native").unwrap();
    std::fs::set_permissions(k.join("key"), std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(Store::open(&k, "native").unwrap_err().contains("key"));
    for d in [&r, &open, &k] {
        let _ = std::fs::remove_dir_all(d);
    }
    let _ = std::fs::remove_file(&link);
}

#[test]
fn a_folder_owned_by_another_user_is_refused() {
    if euid() != 0 {
        eprintln!("skipped: giving a folder to another user needs root");
        return;
    }
    let r = root("foreign");
    std::fs::create_dir_all(&r).unwrap();
    std::os::unix::fs::chown(&r, Some(12345), Some(12345)).unwrap();
    std::fs::set_permissions(&r, std::fs::Permissions::from_mode(0o700)).unwrap();
    let e = Store::open(&r, "native").unwrap_err();
    assert!(e.contains("owned by another user"), "{e}");
    // A foreign key file in an otherwise good root.
    let k = root("foreign-key");
    Store::open(&k, "native").unwrap();
    std::os::unix::fs::chown(k.join("key"), Some(12345), None).unwrap();
    assert!(Store::open(&k, "native")
        .unwrap_err()
        .contains("another user"));
    let _ = std::fs::remove_dir_all(&r);
    let _ = std::fs::remove_dir_all(&k);
}

#[test]
fn private_folders_and_loadable_copies() {
    let d = private_dir(&std::env::temp_dir()).unwrap();
    assert_eq!(mode(d.path()), 0o700);
    let p = d.path().to_path_buf();
    drop(d);
    assert!(!p.exists());
    let l = Loadable::new(b"\x7fELF bytes").unwrap();
    assert_eq!(std::fs::read(l.path()).unwrap(), b"\x7fELF bytes");
    // A writable folder without the sticky bit is no place for private files.
    let open = root("open-parent");
    std::fs::create_dir_all(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    assert!(private_dir(&open).is_err());
    let _ = std::fs::remove_dir_all(&open);
}

#[test]
fn scratch_folders_of_ended_processes_are_removed() {
    let r = root("stale");
    let s = Store::open(&r, "native").unwrap();
    // A folder of a process that cannot exist (pids stop far below this), as a compile
    // killed by SIGKILL leaves it, and one of this (live) process.
    let dead = s.dir().join("blazar-2000000000-00112233445566ff");
    std::fs::create_dir(&dead).unwrap();
    std::fs::write(dead.join("kernel.cpp"), b"int x;").unwrap();
    let mine = s.scratch().unwrap();
    let other = s.dir().join("not-a-scratch-folder");
    std::fs::create_dir(&other).unwrap();
    // Recent folders stay (another namespace's live compile looks the same).
    assert_eq!(s.clean_scratch(std::time::Duration::from_secs(3600)), 0);
    assert!(dead.exists());
    assert_eq!(s.clean_scratch(std::time::Duration::ZERO), 1);
    assert!(!dead.exists());
    assert!(mine.path().exists());
    assert!(other.exists());
    drop(mine);
    let _ = std::fs::remove_dir_all(&r);
}
