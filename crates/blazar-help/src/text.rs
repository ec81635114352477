//! The texts of `help`: one entry, a search, the overview (for `blazar help` and the
//! REPL alike).

/// What `help NAME` shows, or why there is nothing (with the closest names).
pub fn help_text(name: &str) -> Result<String, String> {
    if let Some(e) = crate::doc(name) {
        return Ok(e.render());
    }
    let mut msg = format!("no function named `{name}`");
    let names = crate::all().iter().map(|e| e.name.as_str());
    if let Some(hint) = blazar_diagnostics::suggest::did_you_mean(name, names) {
        msg.push_str(&format!("; {hint}"));
    }
    msg.push_str(" (`help --search WORD` searches the descriptions)");
    Err(msg)
}

/// One line per function that mentions `word`.
pub fn search_text(word: &str) -> String {
    let mut s = String::new();
    for e in crate::search(word) {
        let first = e.sig.split(" · ").next().unwrap_or(&e.sig);
        s.push_str(&format!("{:<44} {}\n", first, e.module));
    }
    s
}

/// The modules and their functions.
pub fn overview() -> String {
    let mut s = String::from(
        "Functions by module (`help NAME` for one, `help --search WORD` to search):\n\n",
    );
    for m in crate::modules() {
        let names: Vec<String> = crate::in_module(m).iter().map(|e| e.name.clone()).collect();
        s.push_str(&format!("{m}:\n"));
        let mut line = String::from("   ");
        for n in names {
            if line.len() + n.len() + 1 > 88 {
                s.push_str(&line);
                s.push('\n');
                line = String::from("   ");
            }
            line.push(' ');
            line.push_str(&n);
        }
        s.push_str(&line);
        s.push('\n');
    }
    s
}
