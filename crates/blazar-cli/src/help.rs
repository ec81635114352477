//! `blazar help`: the documentation of a function, a search, or the generated function
//! reference (all from `blazar-help`'s registry).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug, Default)]
pub struct HelpArgs {
    /// The function to document (`sum`, `imfilter`, `parallel_do`); without one, the
    /// modules and their functions.
    pub name: Option<String>,
    /// List the functions whose name or description mentions WORD.
    #[arg(long, value_name = "WORD", conflicts_with = "name")]
    pub search: Option<String>,
    /// Write the function reference (one Markdown page per module) into DIR.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["name", "search"])]
    pub reference: Option<PathBuf>,
}

pub fn main(args: HelpArgs) -> ExitCode {
    if let Some(dir) = args.reference {
        return write_reference(&dir);
    }
    if let Some(word) = args.search {
        let hits = blazar_help::search(&word);
        if hits.is_empty() {
            eprintln!("blazar: no function mentions `{word}`");
            return ExitCode::from(1);
        }
        print!("{}", blazar_help::search_text(&word));
        return ExitCode::SUCCESS;
    }
    match args.name {
        None => {
            print!("{}", blazar_help::overview());
            ExitCode::SUCCESS
        }
        Some(name) => match blazar_help::help_text(&name) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(msg) => {
                eprintln!("blazar: {msg}");
                ExitCode::from(1)
            }
        },
    }
}

fn write_reference(dir: &std::path::Path) -> ExitCode {
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("blazar: cannot create {}: {e}", dir.display());
        return ExitCode::from(1);
    }
    for (name, text) in blazar_help::reference::pages() {
        let path = dir.join(&name);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("blazar: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
