//! The lines typed in earlier sessions, kept in the user's data folder
//! (`$XDG_DATA_HOME/blazar/history`, else `~/.local/share/blazar/history`) so that the
//! arrow keys reach them in the next session, as in MATLAB and IPython.

use std::path::{Path, PathBuf};

/// The most lines kept; older ones are dropped when the file is written.
pub const MAX_LINES: usize = 2000;

/// Where the history lives, from the environment (`None` without a home folder).
pub fn path() -> Option<PathBuf> {
    path_from(
        std::env::var_os("XDG_DATA_HOME").map(PathBuf::from),
        std::env::var_os("HOME").map(PathBuf::from),
    )
}

/// [`path`] from the values of `XDG_DATA_HOME` and `HOME` (an empty or relative
/// `XDG_DATA_HOME` is ignored, as the XDG rules say).
pub fn path_from(xdg_data_home: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    let data = match xdg_data_home.filter(|p| p.is_absolute()) {
        Some(d) => d,
        None => home
            .filter(|h| !h.as_os_str().is_empty())?
            .join(".local/share"),
    };
    Some(data.join("blazar").join("history"))
}

/// The lines of the history file, oldest first (none when it is missing or unreadable).
pub fn load(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .map(|t| {
            t.lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Writes the last [`MAX_LINES`] of `lines`, making the folder if needed.
pub fn save<S: AsRef<str>>(file: &Path, lines: &[S]) -> std::io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let from = lines.len().saturating_sub(MAX_LINES);
    let mut text = String::new();
    for l in &lines[from..] {
        let l = l.as_ref();
        if !l.trim().is_empty() && !l.contains('\n') {
            text.push_str(l);
            text.push('\n');
        }
    }
    std::fs::write(file, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_folder_is_used() {
        let p = path_from(None, Some("/home/ada".into())).unwrap();
        assert_eq!(p, Path::new("/home/ada/.local/share/blazar/history"));
        let p = path_from(Some("/data".into()), Some("/home/ada".into())).unwrap();
        assert_eq!(p, Path::new("/data/blazar/history"));
        // A relative XDG_DATA_HOME is ignored.
        let p = path_from(Some("rel".into()), Some("/home/ada".into())).unwrap();
        assert_eq!(p, Path::new("/home/ada/.local/share/blazar/history"));
        assert_eq!(path_from(None, None), None);
    }

    #[test]
    fn lines_survive_from_one_session_to_the_next() {
        let dir = std::env::temp_dir().join(format!("blazar-history-{}", std::process::id()));
        let file = dir.join("blazar").join("history");
        assert!(load(&file).is_empty());
        // The first session writes its lines (the folder is made) ...
        save(&file, &["x = 1", "", "print x"]).unwrap();
        // ... the next one reads them and adds its own.
        let mut lines = load(&file);
        assert_eq!(lines, ["x = 1", "print x"]);
        lines.push("y = x + 1".into());
        save(&file, &lines).unwrap();
        assert_eq!(load(&file), ["x = 1", "print x", "y = x + 1"]);
        // Only the newest MAX_LINES are kept.
        let many: Vec<String> = (0..MAX_LINES + 5).map(|i| format!("a = {i}")).collect();
        save(&file, &many).unwrap();
        let kept = load(&file);
        assert_eq!(kept.len(), MAX_LINES);
        assert_eq!(kept[0], "a = 5");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
