//! The debugger's commands: parsing a command line into a [`Command`].
//!
//! Every command has a long name and most a short one (`b`, `c`, `s`, `n`, `p`, `q`);
//! a bad command or argument is a message for the user, never a panic.

/// One command line.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Nothing,
    Help,
    Run,
    Continue,
    Step,
    Next,
    Finish,
    Quit,
    /// `break [FILE:]LINE [if COND]`
    Break {
        file: Option<String>,
        line: u32,
        cond: Option<String>,
    },
    /// `delete [N]`
    Delete(Option<usize>),
    InfoBreaks,
    InfoKernel,
    Threads,
    /// `thread POS`: components of a position.
    Thread(Vec<i64>),
    /// `block BLKIDX`
    Block(Vec<i64>),
    Print(String),
    Shared,
    Record(String),
    Races,
    /// `bt`: the call stack.
    Backtrace,
    /// `frame N`: show frame N (and evaluate `print` there, in host code).
    Frame(usize),
}

/// The text of `help`.
pub const HELP: &str = "\
commands (short forms in brackets):
  break [FILE:]LINE [if COND]  [b]  stop when a statement at LINE of FILE runs
                                    (the program's file without FILE; FILE may be
                                    an imported module: util.q, imfilter.q)
                                    (with COND: in a thread where COND holds)
  delete [N]                        delete breakpoint N (all without N)
  info breakpoints | info kernel    list breakpoints | the launch: shape, block,
                                    shared memory per block, occupancy
  run | continue               [c]  start the program | run to the next breakpoint
  step [s] | next [n]               the next statement of this thread, or its next
                                    step inside one under the random schedule
                                    (next: not into the bodies of ifs and loops)
  finish                            run to the end of the kernel
  thread POS | block BLKIDX         move to a thread or a block (POS: 3 or [1,2]);
                                    another block runs until it reaches this line
  threads                           this block's threads: active, waiting or
                                    finished, with their barrier index and line
  print EXPR                   [p]  an expression in this thread: variables, pos,
                                    blkpos, blkidx, blkdim, a[i,j], arithmetic
                                    (in host code: in the selected frame)
  backtrace [bt] | frame N     [f]  the call stack (a kernel above the host
                                    frames that launched it) | frame N's locals
  shared                            the block's shared memory (a PNG for images)
  record ARRAY                      write ARRAY as PNG frames after every barrier
  races                             the data races found so far (--check-races)
  help | quit                  [q]";

fn position(text: &str) -> Result<Vec<i64>, String> {
    let t = text.trim().trim_start_matches('[').trim_end_matches(']');
    let parts: Result<Vec<i64>, _> = t
        .split([',', ' '])
        .filter(|p| !p.is_empty())
        .map(|p| p.trim().parse::<i64>())
        .collect();
    match parts {
        Ok(v) if !v.is_empty() => Ok(v),
        _ => Err(format!("`{text}` is not a position: write 3 or [1,2]")),
    }
}

fn break_at(rest: &str) -> Result<Command, String> {
    let (at, cond) = match rest.split_once(" if ") {
        Some((a, c)) => (a.trim(), Some(c.trim().to_string())),
        None => (rest.trim(), None),
    };
    if at.is_empty() {
        return Err("break needs a line: `break 12` or `break prog.q:12`".into());
    }
    let (file, line) = match at.rsplit_once(':') {
        Some((f, l)) if !f.is_empty() => (Some(f.to_string()), l),
        _ => (None, at),
    };
    match line.parse::<u32>() {
        Ok(n) => Ok(Command::Break {
            file,
            line: n,
            cond,
        }),
        Err(_) => Err(format!(
            "`{at}` is not a line: `break 12` or `break prog.q:12`"
        )),
    }
}

impl Command {
    /// Parses one command line.
    pub fn parse(line: &str) -> Result<Command, String> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let none = |c: Command| {
            if rest.is_empty() {
                Ok(c)
            } else {
                Err(format!("`{word}` takes no argument"))
            }
        };
        match word {
            "" => Ok(Command::Nothing),
            "help" | "h" => Ok(Command::Help),
            "run" | "r" => none(Command::Run),
            "continue" | "c" => none(Command::Continue),
            "step" | "s" => none(Command::Step),
            "next" | "n" => none(Command::Next),
            "finish" => none(Command::Finish),
            "quit" | "q" => none(Command::Quit),
            "threads" => none(Command::Threads),
            "shared" => none(Command::Shared),
            "races" => none(Command::Races),
            "backtrace" | "bt" | "where" => none(Command::Backtrace),
            "frame" | "f" => rest
                .parse()
                .map(Command::Frame)
                .map_err(|_| format!("`frame` takes a frame number (see `bt`), not `{rest}`")),
            "break" | "b" => break_at(rest),
            "delete" | "d" if rest.is_empty() => Ok(Command::Delete(None)),
            "delete" | "d" => rest
                .parse()
                .map(|n| Command::Delete(Some(n)))
                .map_err(|_| format!("`{rest}` is not a breakpoint number")),
            "info" => match rest {
                "breakpoints" | "break" | "b" => Ok(Command::InfoBreaks),
                "kernel" | "k" => Ok(Command::InfoKernel),
                _ => Err("info what? `info breakpoints` or `info kernel`".into()),
            },
            "thread" | "t" => position(rest).map(Command::Thread),
            "block" => position(rest).map(Command::Block),
            "print" | "p" if rest.is_empty() => Err("print what? `print x`".into()),
            "print" | "p" => Ok(Command::Print(rest.to_string())),
            "record" if rest.is_empty() => Err("record which array? `record img`".into()),
            "record" => Ok(Command::Record(rest.to_string())),
            w => Err(format!("unknown command `{w}` (`help` lists the commands)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breakpoints_take_a_line_a_file_and_a_condition() {
        let b = |file: Option<&str>, line, cond: Option<&str>| Command::Break {
            file: file.map(str::to_string),
            line,
            cond: cond.map(str::to_string),
        };
        assert_eq!(Command::parse("break 12"), Ok(b(None, 12, None)));
        assert_eq!(Command::parse("b prog.q:7"), Ok(b(Some("prog.q"), 7, None)));
        assert_eq!(
            Command::parse("break lib/util.q:6 if v == 3"),
            Ok(b(Some("lib/util.q"), 6, Some("v == 3")))
        );
        assert!(Command::parse("break").is_err());
        assert!(Command::parse("break prog.q:x").is_err());
    }

    #[test]
    fn positions_and_bad_commands() {
        assert_eq!(
            Command::parse("thread [1, 2]"),
            Ok(Command::Thread(vec![1, 2]))
        );
        assert_eq!(Command::parse("block 3"), Ok(Command::Block(vec![3])));
        assert!(Command::parse("thread [a]").is_err());
        assert!(Command::parse("step 2").is_err());
        assert!(Command::parse("frobnicate").is_err());
        assert_eq!(Command::parse("  "), Ok(Command::Nothing));
        assert_eq!(
            Command::parse("p x + 1"),
            Ok(Command::Print("x + 1".into()))
        );
        assert_eq!(Command::parse("delete"), Ok(Command::Delete(None)));
        assert_eq!(Command::parse("bt"), Ok(Command::Backtrace));
        assert_eq!(Command::parse("frame 2"), Ok(Command::Frame(2)));
        assert!(Command::parse("frame x").is_err());
        assert!(Command::parse("bt 1").is_err());
        assert!(Command::parse("delete x").is_err());
    }
}
