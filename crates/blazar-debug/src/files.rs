//! The program's source files as the debugger knows them: their names and lines, the
//! file that defines each kernel, and what FILE in `break FILE:LINE` names.
//!
//! File 0 is the program's own file; the others are its imports in load order (user
//! modules by path, Blazar's bundled modules as `<blazar>/NAME.q`). FILE names a file
//! by its whole name, by the end of its path (`util.q`, `lib/util.q`, `imfilter.q`)
//! or, for an existing path, by the file it is.

use std::collections::HashMap;
use std::path::Path;

pub(crate) struct SrcFile {
    pub name: String,
    pub lines: Vec<String>,
}

pub(crate) struct Files {
    pub list: Vec<SrcFile>,
    /// The file defining each function (kernels and device functions included).
    defined_in: HashMap<String, usize>,
}

impl Files {
    /// Only the program's own file (until [`Files::load`]).
    pub fn single(name: &str, text: &str) -> Files {
        Files {
            list: vec![SrcFile {
                name: name.to_string(),
                lines: text.lines().map(str::to_string).collect(),
            }],
            defined_in: HashMap::new(),
        }
    }

    /// Every file of a loaded program (the program's own keeps its name).
    pub fn load(&mut self, loaded: &blazar_interp::Loaded) {
        for (i, f) in loaded.sources.files().iter().enumerate() {
            let lines = f.text.lines().map(str::to_string).collect();
            match self.list.get_mut(i) {
                Some(have) => have.lines = lines,
                None => self.list.push(SrcFile {
                    name: f.name.clone(),
                    lines,
                }),
            }
        }
        for f in &loaded.program.functions {
            (self.defined_in)
                .entry(f.name.clone())
                .or_insert(f.span.file.0 as usize);
        }
    }

    pub fn name(&self, file: usize) -> &str {
        self.list.get(file).map_or("", |f| f.name.as_str())
    }

    /// Line `line` (1-based) of `file`, trimmed.
    pub fn line(&self, file: usize, line: u32) -> &str {
        let f = self.list.get(file);
        f.and_then(|f| f.lines.get((line as usize).checked_sub(1)?))
            .map_or("", |s| s.trim())
    }

    pub fn lines(&self, file: usize) -> usize {
        self.list.get(file).map_or(0, |f| f.lines.len())
    }

    /// The file that defines kernel `name` (the program's own when unknown, as
    /// kernel errors are located).
    pub fn of_kernel(&self, name: &str) -> usize {
        self.defined_in.get(name).copied().unwrap_or(0)
    }

    /// The file FILE names, or a message naming the files there are.
    pub fn resolve(&self, want: &str) -> Result<usize, String> {
        let want_n = want.replace('\\', "/");
        let exact: Vec<usize> = (0..self.list.len())
            .filter(|&i| self.list[i].name.replace('\\', "/") == want_n)
            .collect();
        if let [i] = exact[..] {
            return Ok(i);
        }
        let tail = format!("/{}", want_n.trim_start_matches("./"));
        let ends: Vec<usize> = (0..self.list.len())
            .filter(|&i| self.list[i].name.replace('\\', "/").ends_with(&tail))
            .collect();
        match ends[..] {
            [i] => return Ok(i),
            [_, _, ..] => {
                let names: Vec<&str> = ends.iter().map(|&i| self.name(i)).collect();
                return Err(format!(
                    "`{want}` names several files of the program ({}): write more of its path",
                    names.join(", ")
                ));
            }
            [] => {}
        }
        if let Ok(real) = Path::new(want).canonicalize() {
            let same = |n: &str| Path::new(n).canonicalize().is_ok_and(|p| p == real);
            if let Some(i) = (0..self.list.len()).find(|&i| same(&self.list[i].name)) {
                return Ok(i);
            }
        }
        let names: Vec<&str> = self.list.iter().map(|f| f.name.as_str()).collect();
        Err(format!(
            "no file `{want}` in the program; its files are {}",
            names.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(names: &[&str]) -> Files {
        Files {
            list: (names.iter())
                .map(|n| SrcFile {
                    name: n.to_string(),
                    lines: vec!["x = 1".into()],
                })
                .collect(),
            defined_in: HashMap::new(),
        }
    }

    #[test]
    fn files_by_name_path_end_or_module() {
        let f = files(&["prog.q", "/home/u/lib/util.q", "<blazar>/imfilter.q"]);
        assert_eq!(f.resolve("prog.q"), Ok(0));
        assert_eq!(f.resolve("util.q"), Ok(1));
        assert_eq!(f.resolve("lib/util.q"), Ok(1));
        assert_eq!(f.resolve("/home/u/lib/util.q"), Ok(1));
        assert_eq!(f.resolve("imfilter.q"), Ok(2));
        let e = f.resolve("nosuch.q").unwrap_err();
        assert!(e.starts_with("no file `nosuch.q` in the program; its files are prog.q,"));
        // `til.q` is not the end of a path component.
        assert!(f.resolve("til.q").is_err());
    }

    #[test]
    fn a_name_of_several_files_is_refused() {
        let f = files(&["prog.q", "a/util.q", "b/util.q"]);
        let e = f.resolve("util.q").unwrap_err();
        assert!(e.contains("names several files"), "{e}");
        assert_eq!(f.resolve("b/util.q"), Ok(2));
    }
}
