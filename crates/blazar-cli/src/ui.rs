//! `blazar run`'s options for forms (`form("title")`): where they are shown.

use blazar_runtime::builtins::Ctx;
use std::io::IsTerminal;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum UiMode {
    /// `browser` when a person runs the program (standard output is a terminal) on a
    /// machine with a display or `$BROWSER`; `none` otherwise.
    Auto,
    /// A local web page (127.0.0.1, with a per-run token in its address).
    Browser,
    /// Nothing shown: controls keep their initial values, each `onchange` callback
    /// runs once, displays are written as figure files.
    None,
}

/// The options of forms, flattened into `blazar run`'s.
#[derive(clap::Args, Debug)]
pub struct UiArgs {
    /// Where forms (`form("title")`, the `Quasar.UI.dll` plugin) are shown: `browser`
    /// (a local web page), `none` (headless: controls keep their initial values and
    /// each `onchange` callback runs once) or `auto` (`browser` when run from a
    /// terminal on a machine with a display or `$BROWSER`, else `none`).
    #[arg(long, value_enum, default_value_t = UiMode::Auto)]
    pub ui: UiMode,
    /// The port of the form's page on 127.0.0.1 (default: a free one).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub ui_port: u16,
    /// Print the form page's address but do not open a browser.
    #[arg(long)]
    pub ui_no_open: bool,
}

/// Installs the page's host in `ctx` when forms are shown in a browser.
pub fn install(args: &UiArgs, ctx: &mut Ctx) {
    let browser = match args.ui {
        UiMode::Browser => true,
        UiMode::None => false,
        UiMode::Auto => {
            let display = ["DISPLAY", "WAYLAND_DISPLAY", "BROWSER"]
                .iter()
                .any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty()));
            std::io::stdout().is_terminal() && (display || cfg!(target_os = "macos"))
        }
    };
    if browser {
        let host = blazar_ui::Browser::new(args.ui_port, !args.ui_no_open);
        let flag = host.flag();
        ctx.ui.set_host(Box::new(host), flag);
    }
}
