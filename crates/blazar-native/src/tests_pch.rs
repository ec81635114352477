//! The precompiled prelude: every generated source splits into the prelude and the
//! kernel's part; GCC uses the PCH; a corrupt, stale or failing PCH, a compiler that is
//! not GCC and a missing store all compile the whole source, with the same results.

use crate::compile;
use crate::toolchain::Toolchain;
use crate::CpuTier;
use blazar_cache::Store;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh store under the temporary folder (its root is removed by the caller).
fn fresh_store(name: &str) -> (PathBuf, Store) {
    let root = std::env::temp_dir().join(format!("blazar-pch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let store = Store::open(&root, "native").expect("a private cache");
    (root, store)
}

/// A source whose `bz_finish` writes `max(NaN, v)` (prelude helpers) as an f64.
fn source(v: f64) -> String {
    format!(
        "{}\n// ---- kernel t{v} (rank 1) ----\n\
         extern \"C\" __attribute__((visibility(\"default\"))) int bz_run(const bz_call*, i64, i64, u8*, bz_err*) {{ return 0; }}\n\
         extern \"C\" __attribute__((visibility(\"default\"))) void bz_finish(const u8*, i64, u8* r) {{ f64 x = fmax((f64)NAN, {v:?}); memcpy(r, &x, 8); }}\n",
        blazar_codegen_c::cpp::prelude()
    )
}

/// Builds `source(v)` into `store` and returns what its `bz_finish` writes.
fn build_and_call(tc: &Toolchain, store: Option<&Store>, v: f64) -> f64 {
    let src = source(v);
    let key = compile::key(tc, &src);
    let lib = compile::build(tc, store, &key, &src).expect("the test source compiles");
    let mut out = [0u8; 16];
    // SAFETY: `bz_finish` of `source` writes 8 bytes to its third argument and reads
    // nothing else.
    unsafe { (lib.finish)(std::ptr::null(), 0, out.as_mut_ptr()) };
    f64::from_le_bytes(out[..8].try_into().unwrap())
}

/// The GCC toolchain, or `None` (printing why the test is skipped).
fn gcc() -> Option<&'static Toolchain> {
    match crate::toolchain::toolchain() {
        Ok(tc) if tc.gcc && std::env::var_os("BLAZAR_NO_PCH").is_none() => Some(tc),
        Ok(_) => {
            println!("SKIP: the C++ compiler is not GCC (or BLAZAR_NO_PCH is set)");
            None
        }
        Err(e) => {
            println!("SKIP: {e}");
            None
        }
    }
}

/// Whether GCC takes the PCH in `dir` (`-H` marks a used PCH with `!`).
fn gcc_uses(tc: &Toolchain, dir: &Path) -> bool {
    let out = Command::new(&tc.cxx)
        .args(crate::FLAGS.iter().filter(|f| **f != "-shared"))
        .args(&tc.defines)
        .args(["-H", "-fsyntax-only", "-include"])
        .arg(dir.join(crate::pch::HEADER))
        .args(["-x", "c++", "/dev/null"])
        .output()
        .expect("runs the compiler");
    let log = String::from_utf8_lossy(&out.stderr);
    log.lines().next().is_some_and(|l| l.starts_with("! "))
}

#[test]
fn every_generated_source_is_the_prelude_and_the_kernels_part() {
    let (_, kernels) = crate::tests::run_on(
        "
function [] = __kernel__ plain(y : vec, pos : int)
    y[pos] = sqrt(pos) + 1
endfunction
function [] = __kernel__ blocky(y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = pos
    syncthreads
    y[pos] = s[blkdim - 1 - blkpos]
endfunction
y = zeros(64)
parallel_do(64, y, plain)
parallel_do([[64], [16]], y, blocky)
print sum(y)
",
        CpuTier::Interp,
        1,
        false,
    );
    assert_eq!(kernels.len(), 2);
    for k in &kernels {
        let src = crate::source(k).expect("supported natively");
        let part = blazar_codegen_c::cpp::kernel_part(&src).expect("starts with the prelude");
        assert_eq!(format!("{}{part}", blazar_codegen_c::cpp::prelude()), src);
        assert!(part.starts_with("\n// ---- kernel "), "{}", &part[..80]);
        assert!(!part.contains("#include"), "the part holds no prelude");
    }
    assert_eq!(blazar_codegen_c::cpp::kernel_part("int x;"), None);
}

#[test]
fn gcc_is_told_from_its_version_text() {
    let gcc = "c++ (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.\n";
    assert!(crate::toolchain::is_gcc(gcc));
    assert!(crate::toolchain::is_gcc(
        "g++ (GCC) 13.2.1 20231011\nCopyright (C) 2023 Free Software Foundation, Inc."
    ));
    assert!(!crate::toolchain::is_gcc(
        "Ubuntu clang version 17.0.6\nTarget: x86_64-pc-linux-gnu\nThread model: posix"
    ));
    assert!(!crate::toolchain::is_gcc(
        "Apple clang version 15.0.0 (clang-1500.1.0.2.5)\nTarget: arm64-apple-darwin23"
    ));
    assert!(!crate::toolchain::is_gcc(
        "Intel(R) oneAPI DPC++/C++ Compiler 2024.0.0"
    ));
}

#[test]
fn the_pch_is_built_once_used_and_gives_the_same_code() {
    let Some(tc) = gcc() else { return };
    let (root, store) = fresh_store("used");
    assert_eq!(build_and_call(tc, Some(&store), 2.5), 2.5);
    let dir = store
        .verified_dir(&crate::pch::name(tc))
        .expect("the PCH folder is published");
    assert!(gcc_uses(tc, &dir), "GCC takes the PCH");
    assert_eq!(crate::pch::folder(tc, Some(&store)), Some(dir.clone()));
    // The object made with the PCH is the one made from the whole source.
    let src = source(4.5);
    let scratch = store.scratch().unwrap();
    let part = blazar_codegen_c::cpp::kernel_part(&src).unwrap();
    let with = compile::run_cxx(tc, scratch.path(), part, Some(&dir)).unwrap();
    let without = compile::run_cxx(tc, scratch.path(), &src, None).unwrap();
    assert_eq!(code_of(&with), code_of(&without));
    // No store: no PCH, the whole source compiles.
    assert_eq!(crate::pch::folder(tc, None), None);
    assert_eq!(build_and_call(tc, None, 3.5), 3.5);
    let _ = std::fs::remove_dir_all(&root);
}

/// The disassembly of a shared object (without its file name line), or its bytes
/// when `objdump` is missing.
fn code_of(object: &[u8]) -> Vec<u8> {
    let dir = blazar_cache::private_dir(&std::env::temp_dir()).unwrap();
    let path = dir.path().join("k.so");
    std::fs::write(&path, object).unwrap();
    match Command::new("objdump").arg("-d").arg(&path).output() {
        Ok(o) if o.status.success() => o
            .stdout
            .split(|&b| b == b'\n')
            .skip(2)
            .flatten()
            .copied()
            .collect(),
        _ => object.to_vec(),
    }
}

#[test]
fn a_corrupt_pch_is_rebuilt_and_kernels_still_compile() {
    let Some(tc) = gcc() else { return };
    let (root, store) = fresh_store("corrupt");
    assert_eq!(build_and_call(tc, Some(&store), 1.0), 1.0);
    let dir = crate::pch::folder(tc, Some(&store)).expect("the PCH is ready");
    let gch = dir.join(format!("{}.gch", crate::pch::HEADER));
    let good = std::fs::read(&gch).unwrap();
    // Truncated after this process verified it: GCC stops with an error, so the kernel
    // compiles as a whole source, and the PCH is off for the rest of the process.
    std::fs::write(&gch, &good[..good.len() / 2]).unwrap();
    assert_eq!(build_and_call(tc, Some(&store), 2.0), 2.0);
    assert_eq!(crate::pch::folder(tc, Some(&store)), None, "given up");
    // A later process finds the seal broken: the folder is removed and rebuilt.
    crate::pch::forget(&store);
    let again = crate::pch::folder(tc, Some(&store)).expect("rebuilt");
    let rebuilt = std::fs::read(&gch).unwrap();
    assert!(rebuilt.len() > good.len() / 2, "a whole PCH again");
    assert!(gcc_uses(tc, &again));
    // A flipped byte (which GCC would not notice) fails the seal in the same way.
    let mut flipped = rebuilt.clone();
    flipped[rebuilt.len() / 2] ^= 0x55;
    std::fs::write(&gch, &flipped).unwrap();
    crate::pch::forget(&store);
    assert!(crate::pch::folder(tc, Some(&store)).is_some());
    assert!(std::fs::read(&gch).unwrap() != flipped, "rebuilt");
    assert!(gcc_uses(tc, &again));
    assert_eq!(build_and_call(tc, Some(&store), 3.0), 3.0);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_stale_pch_is_skipped_by_gcc_which_reads_the_header() {
    let Some(tc) = gcc() else { return };
    let (root, store) = fresh_store("stale");
    // A sealed folder whose PCH GCC rejects (made without optimisation, as by another
    // build of the compiler): kernels compile from the header text beside it.
    let name = crate::pch::name(tc);
    store
        .publish_dir(&name, |dir| {
            let header = dir.join(crate::pch::HEADER);
            std::fs::write(&header, blazar_codegen_c::cpp::prelude()).unwrap();
            let ok = Command::new(&tc.cxx)
                .args(crate::FLAGS.iter().filter(|f| **f != "-shared"))
                .args(&tc.defines)
                .args(["-O0", "-x", "c++-header", "-o"])
                .arg(dir.join(format!("{}.gch", crate::pch::HEADER)))
                .arg(&header)
                .status()
                .unwrap();
            assert!(ok.success());
            Ok(())
        })
        .unwrap();
    let dir = crate::pch::folder(tc, Some(&store)).expect("the sealed folder is used");
    assert!(!gcc_uses(tc, &dir), "GCC rejects the stale PCH");
    assert_eq!(build_and_call(tc, Some(&store), 5.0), 5.0);
    assert_eq!(
        crate::pch::folder(tc, Some(&store)),
        Some(dir.clone()),
        "still in use"
    );
    // A build whose check fails (with the stale PCH above) publishes nothing.
    let (root2, store2) = fresh_store("stale-build");
    let failed = store2.publish_dir(&name, |new| {
        for file in [
            crate::pch::HEADER.to_string(),
            format!("{}.gch", crate::pch::HEADER),
        ] {
            std::fs::copy(dir.join(&file), new.join(&file)).unwrap();
        }
        crate::pch::check(tc, new)
    });
    assert!(failed.is_err());
    assert_eq!(store2.verified_dir(&name), None);
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&root2);
}

#[test]
fn a_compiler_that_is_not_gcc_compiles_without_the_pch() {
    let Some(real) = gcc() else { return };
    let (root, store) = fresh_store("notgcc");
    // A compiler that calls itself clang (it is the same GCC underneath).
    let fake = root.join("fake-clang");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'clang version 17.0.6'; echo 'Target: x86_64-pc-linux-gnu'; exit 0; fi\nexec '{}' \"$@\"\n",
            real.cxx
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    let tc = crate::toolchain::probe_cxx(fake.to_string_lossy().into_owned()).expect("it works");
    assert!(!tc.gcc);
    assert_eq!(crate::pch::folder(&tc, Some(&store)), None);
    assert_eq!(build_and_call(&tc, Some(&store), 6.0), 6.0);
    let names: Vec<String> = std::fs::read_dir(store.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with("pch-")), "{names:?}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_planted_pch_never_reaches_a_kernel() {
    let Some(tc) = gcc() else { return };
    let (root, store) = fresh_store("planted");
    let marker = root.join("marker");
    // The prelude with a constructor that leaves a marker: it would run in every
    // kernel's library when loaded.
    let evil = format!(
        "{}\n#include <cstdio>\n__attribute__((constructor)) static void bz_planted() {{ FILE* f = fopen(\"{}\", \"w\"); if (f) fclose(f); }}\n",
        blazar_codegen_c::cpp::prelude(),
        marker.display()
    );
    let name = crate::pch::name(tc);
    // Sealed by someone else's cache (another key), moved in at the PCH's name.
    let (other_root, other) = fresh_store("planted-other");
    let theirs = other
        .publish_dir(&name, |d| crate::pch::build_header(tc, d, &evil))
        .unwrap();
    std::fs::rename(&theirs, store.path(&name)).unwrap();
    assert_eq!(build_and_call(tc, Some(&store), 7.0), 7.0);
    assert!(!marker.exists(), "the planted constructor ran");
    let dir = store.verified_dir(&name).expect("rebuilt");
    let header = std::fs::read_to_string(dir.join(crate::pch::HEADER)).unwrap();
    assert_eq!(header, blazar_codegen_c::cpp::prelude());
    // The control: had it carried this user's seal, GCC would have used it.
    std::fs::remove_dir_all(&dir).unwrap();
    crate::pch::forget(&store);
    store
        .publish_dir(&name, |d| crate::pch::build_header(tc, d, &evil))
        .unwrap();
    assert_eq!(build_and_call(tc, Some(&store), 8.0), 8.0);
    assert!(
        marker.exists(),
        "a sealed PCH is what kernels are built with"
    );
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&other_root);
}
