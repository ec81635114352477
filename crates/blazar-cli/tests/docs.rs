//! The examples of the user guide (`docs/`) and of the README run as tests, so the
//! documentation cannot drift from what Blazar does.
//!
//! An example is a fenced block opened with ```` ```quasar ```` (words after `quasar`
//! are extra `blazar run` flags, such as `--double`). The block after it, when it is
//! ```` ```output ````, is the exact standard output (lines compared with surrounding
//! blanks trimmed); when it is ```` ```error ````, the run must fail and each of its
//! lines must appear in stderr (the program is saved as `example.q`). Without either,
//! the example must run without an error. Other blocks (```` ```text ````, shell
//! commands) are not run. A last test checks that every builtin function is named in
//! the standard-library chapter, and another that `examples/denoise_pca.q` is the
//! golden program `tests/programs/stdlib/denoise_pca.q` without its test block (so the
//! example's output is checked against its reference values).

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One runnable example.
struct Example {
    /// `docs/guide/04-kernels.md:37`
    name: String,
    code: String,
    flags: Vec<String>,
    expect: Expect,
}

enum Expect {
    Runs,
    Output(String),
    Error(String),
}

/// The fenced blocks of a Markdown text: (info string, body, 1-based opening line).
fn blocks(text: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match (&mut open, fence) {
            (None, true) => {
                let info = line.trim_start().trim_start_matches('`').trim().to_string();
                open = Some((info, String::new(), i + 1));
            }
            (Some(_), true) => out.push(open.take().unwrap()),
            (Some((_, body, _)), false) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, false) => {}
        }
    }
    out
}

fn examples(file: &Path, shown: &str) -> Vec<Example> {
    let text = std::fs::read_to_string(file).expect("read the guide");
    let bs = blocks(&text);
    let mut out = Vec::new();
    for (i, (info, body, line)) in bs.iter().enumerate() {
        let mut words = info.split_whitespace();
        if words.next() != Some("quasar") {
            continue;
        }
        let expect = match bs.get(i + 1) {
            Some((next, b, _)) if next == "output" => Expect::Output(b.clone()),
            Some((next, b, _)) if next == "error" => Expect::Error(b.clone()),
            _ => Expect::Runs,
        };
        out.push(Example {
            name: format!("{shown}:{line}"),
            code: body.clone(),
            flags: words.map(str::to_string).collect(),
            expect,
        });
    }
    out
}

fn trimmed(s: &str) -> Vec<&str> {
    let lines: Vec<&str> = s.lines().map(str::trim).collect();
    let start = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |e| e + 1);
    lines[start..end].to_vec()
}

fn run(blazar: &Path, dir: &Path, ex: &Example) -> Result<(), Failed> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("example.q"), &ex.code).map_err(|e| e.to_string())?;
    let out = Command::new(blazar)
        .current_dir(dir)
        .args(["run", "--device", "cpu"])
        .args(&ex.flags)
        .arg("example.q")
        .env("BLAZAR_QUIET", "1")
        .output()
        .map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_dir_all(dir);
    match &ex.expect {
        Expect::Runs | Expect::Output(_) if !out.status.success() => {
            Err(format!("the example failed:\n{stderr}").into())
        }
        Expect::Runs => Ok(()),
        Expect::Output(want) if trimmed(want) != trimmed(&stdout) => Err(format!(
            "output differs\n--- expected\n{want}--- actual\n{stdout}--- stderr\n{stderr}"
        )
        .into()),
        Expect::Output(_) => Ok(()),
        Expect::Error(_) if out.status.success() => {
            Err(format!("the example should fail; it printed:\n{stdout}").into())
        }
        Expect::Error(want) => match trimmed(want).into_iter().find(|l| !stderr.contains(l)) {
            Some(missing) => Err(format!("stderr lacks `{missing}`:\n{stderr}").into()),
            None => Ok(()),
        },
    }
}

/// The guide's Markdown files, and the README, relative to the repository.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md")];
    let mut stack = vec![root.join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "md") {
                files.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    files.sort();
    files
}

fn main() {
    let args = Arguments::from_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let blazar = PathBuf::from(env!("CARGO_BIN_EXE_blazar"));
    let tmp = std::env::temp_dir().join(format!("blazar-docs-{}", std::process::id()));
    let mut trials = Vec::new();
    let mut n = 0;
    for doc in documents(&root) {
        for ex in examples(&root.join(&doc), &doc.display().to_string()) {
            let (blazar, dir) = (blazar.clone(), tmp.join(n.to_string()));
            n += 1;
            trials.push(Trial::test(ex.name.clone(), move || {
                run(&blazar, &dir, &ex)
            }));
        }
    }
    let library = root.join("docs/guide/07-standard-library.md");
    trials.push(Trial::test("every builtin is in the guide", move || {
        let text = std::fs::read_to_string(&library).map_err(|e| e.to_string())?;
        let missing: Vec<&str> = blazar_runtime::builtins::all()
            .iter()
            .map(|b| b.name)
            .filter(|name| !text.contains(&format!("`{name}`")))
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("not in {}: {}", library.display(), missing.join(", ")).into())
        }
    }));
    let (example, golden) = (
        root.join("examples/denoise_pca.q"),
        root.join("tests/programs/stdlib/denoise_pca.q"),
    );
    trials.push(Trial::test(
        "examples/denoise_pca.q is its golden program",
        move || {
            let ex = std::fs::read_to_string(&example).map_err(|e| e.to_string())?;
            let gold = std::fs::read_to_string(&golden).map_err(|e| e.to_string())?;
            if gold.ends_with(&ex) && gold.len() > ex.len() {
                Ok(())
            } else {
                Err(format!(
                    "{} does not end with {}",
                    golden.display(),
                    example.display()
                )
                .into())
            }
        },
    ));
    let readme = root.join("README.md");
    trials.push(Trial::test("the README links into the guide", move || {
        let text = std::fs::read_to_string(&readme).map_err(|e| e.to_string())?;
        if text.contains("../shared") {
            return Err("README.md links outside the repository (../shared)".into());
        }
        if !text.contains("docs/guide/") {
            return Err("README.md does not link to docs/guide/".into());
        }
        Ok(())
    }));
    libtest_mimic::run(&args, trials).exit();
}
