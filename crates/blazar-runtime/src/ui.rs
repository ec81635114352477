//! Forms (`form("title")`, the `Quasar.UI.dll` plugin): the hook between the builtins
//! that build a form and whatever shows it.
//!
//! The builtins (`builtins/form.rs`, `builtins/figure/display.rs`) keep the state of
//! every form in [`UiState`] and tell a [`UiHost`] what changed ([`ToPage`]); the
//! host answers with what its user did ([`FromPage`]). Two hosts exist: [`Headless`]
//! (here: `--ui none`, tests, the Python extension), which shows nothing and never
//! answers, and the browser page of the `blazar-ui` crate, which the command-line tool
//! installs with [`UiState::set_host`]. This crate has no server, no threads and no
//! async runtime; the interpreter applies what the host reports between statements
//! ([`UiState::due`], one relaxed atomic load per statement).

mod preview;
mod snapshot;

pub use preview::{block, Preview};
pub use snapshot::{to_rgb, to_u8, Range, Snapshot};

use crate::Value;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What the program tells the page: a control, heading or display added, a value
/// the program set, a display's new picture.
#[derive(Clone, Debug, PartialEq)]
pub enum ToPage {
    /// The form's title (sent once, by the first `form`).
    Form {
        title: String,
    },
    Heading {
        text: String,
    },
    Slider {
        id: usize,
        label: String,
        value: f64,
        min: f64,
        max: f64,
    },
    Checkbox {
        id: usize,
        label: String,
        value: bool,
    },
    Button {
        id: usize,
        label: String,
    },
    /// A display: a grid of `rows` × `cols` panels (1 × 1 until `subplot`).
    Display {
        id: usize,
        rows: usize,
        cols: usize,
    },
    /// The program set control `id`'s value (`ctrl.value = x`).
    Value {
        id: usize,
        value: f64,
    },
}

/// A picture for panel `panel` of display `display`. The host shows the newest one of
/// each panel, downscaled, at a bounded rate, and converts it on its own thread.
#[derive(Clone, Debug)]
pub struct Frame {
    pub display: usize,
    pub panel: usize,
    pub picture: Picture,
}

/// What a frame shows.
#[derive(Clone, Debug)]
pub enum Picture {
    /// An image as `imshow` took it (shared with the figure, never copied again).
    Image(Arc<Snapshot>),
    /// A drawn plot: 8-bit RGB, row by row.
    Rgb {
        width: u32,
        height: u32,
        rgb: Vec<u8>,
    },
}

impl Picture {
    /// The picture for a page, its longer side at most `max_side` ([`Preview`]).
    pub fn preview(&self, max_side: u32) -> Preview {
        match self {
            Picture::Image(s) => s.preview(max_side),
            Picture::Rgb { width, height, rgb } => {
                preview::fit(rgb, *width, *height, 3, max_side, |x| x as f64)
            }
        }
    }
}

/// What the user did on the page.
#[derive(Clone, Debug, PartialEq)]
pub enum FromPage {
    /// Moved a slider or ticked a box (1 or 0) of control `id`.
    Set { id: usize, value: f64 },
    /// Clicked button `id`.
    Click { id: usize },
    /// The page was closed (and no other page of the run is open).
    Closed,
}

/// What shows the forms of a run.
pub trait UiHost {
    /// Whether this host shows anything (false: `--ui none`).
    fn interactive(&self) -> bool;
    /// Starts showing (once, on the first `form`); the address to print, if any.
    fn start(&mut self) -> Result<Option<String>, String>;
    /// Tells the page what changed.
    fn send(&mut self, msg: ToPage);
    /// A display's newest picture (an older one not yet shown is dropped).
    fn frame(&mut self, frame: Frame);
    /// What the user did since the last call, without waiting.
    fn events(&mut self) -> Vec<FromPage>;
    /// Waits up to `timeout` for something the user does (empty when nothing came).
    fn wait(&mut self, timeout: Duration) -> Vec<FromPage>;
    /// Whether a page is open or may still be (false once it was closed).
    fn open(&self) -> bool;
}

/// The host of `--ui none`: shows nothing, and nothing ever happens on it.
pub struct Headless;

impl UiHost for Headless {
    fn interactive(&self) -> bool {
        false
    }
    fn start(&mut self) -> Result<Option<String>, String> {
        Ok(None)
    }
    fn send(&mut self, _msg: ToPage) {}
    fn frame(&mut self, _frame: Frame) {}
    fn events(&mut self) -> Vec<FromPage> {
        Vec::new()
    }
    fn wait(&mut self, _timeout: Duration) -> Vec<FromPage> {
        Vec::new()
    }
    fn open(&self) -> bool {
        false
    }
}

/// The kind of a control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlKind {
    Slider,
    Checkbox,
    Button,
}

/// One control of a form: its object (what the program reads `.value` from) and the
/// callbacks `onchange.add` (`onclick.add` for buttons) registered on it.
pub struct Control {
    pub kind: ControlKind,
    pub object: Rc<RefCell<crate::Object>>,
    pub callbacks: Vec<Value>,
    /// The value last sent to or received from the page, to notice the program's own
    /// assignments (`ctrl.value = x`).
    pub shown: f64,
    pub min: f64,
    pub max: f64,
}

/// The forms of a run.
pub struct UiState {
    host: Box<dyn UiHost>,
    /// Set when the interpreter has something to do before the next statement: a
    /// callback to run, an event from the page (the host's thread sets it).
    flag: Arc<AtomicBool>,
    /// Whether `form` was called (the host started).
    pub started: bool,
    pub controls: Vec<Control>,
    /// Displays so far: (figure number of each panel, rows, cols, current panel).
    pub displays: Vec<Display>,
    /// Callbacks to run before the next statement, in order.
    pub queue: Vec<Value>,
    /// `frm.wait()` was called: serve the page until it closes.
    pub waiting: bool,
}

/// A display of a form: a grid of panels, each a figure.
pub struct Display {
    pub rows: usize,
    pub cols: usize,
    /// The panel `imshow` and `plot` draw into (`subplot` picks it).
    pub current: usize,
    /// The figure number of each panel drawn into so far.
    pub panels: Vec<Option<usize>>,
    /// When each panel's plot was last drawn for the page.
    pub drawn: std::collections::HashMap<usize, std::time::Instant>,
    /// Panels whose plot changed since it was last drawn for the page.
    pub stale: std::collections::BTreeSet<usize>,
}

impl Default for UiState {
    fn default() -> Self {
        UiState {
            host: Box::new(Headless),
            flag: Arc::new(AtomicBool::new(false)),
            started: false,
            controls: Vec::new(),
            displays: Vec::new(),
            queue: Vec::new(),
            waiting: false,
        }
    }
}

impl UiState {
    /// Installs the host that shows the forms, and the flag its thread sets when the
    /// user does something (the interpreter then looks at [`UiState::events`]).
    pub fn set_host(&mut self, host: Box<dyn UiHost>, flag: Arc<AtomicBool>) {
        self.host = host;
        self.flag = flag;
    }

    /// A flag for a host to set from another thread when it has events.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }

    /// Whether the interpreter has something to do before the next statement.
    #[inline(always)]
    pub fn due(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Marks that something is due (a callback queued, a wait asked for).
    pub fn mark_due(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Clears the flag before looking at what is due.
    pub fn clear_due(&self) {
        self.flag.store(false, Ordering::Relaxed);
    }

    pub fn interactive(&self) -> bool {
        self.host.interactive()
    }

    /// Whether a page is (or may still be) open: `hold("on")` keeps a display loop
    /// running while it is.
    pub fn page_open(&self) -> bool {
        self.started && self.host.interactive() && self.host.open()
    }

    pub fn host(&mut self) -> &mut dyn UiHost {
        &mut *self.host
    }

    /// Sends the program's own assignments to `.value` that the page has not seen.
    pub fn sync_values(&mut self) {
        if !self.host.interactive() {
            return;
        }
        for (id, c) in self.controls.iter_mut().enumerate() {
            let v = c.object.borrow().get("value").and_then(value_number);
            if let Some(v) = v {
                if v != c.shown {
                    c.shown = v;
                    self.host.send(ToPage::Value { id, value: v });
                }
            }
        }
    }

    /// Applies an event of the page to its control: sets `.value` and queues the
    /// callbacks. Returns false for an event naming no control.
    pub fn apply(&mut self, ev: &FromPage) -> bool {
        match *ev {
            FromPage::Set { id, value } => {
                let Some(c) = self.controls.get_mut(id) else {
                    return false;
                };
                let v = match c.kind {
                    ControlKind::Slider => Value::Real(value.clamp(c.min, c.max)),
                    ControlKind::Checkbox => Value::int((value != 0.0) as i64),
                    ControlKind::Button => return false,
                };
                c.shown = value_number(&v).unwrap_or(value);
                c.object.borrow_mut().set("value", v);
                self.queue.extend(c.callbacks.iter().cloned());
                true
            }
            FromPage::Click { id } => match self.controls.get(id) {
                Some(c) if c.kind == ControlKind::Button => {
                    self.queue.extend(c.callbacks.iter().cloned());
                    true
                }
                _ => false,
            },
            FromPage::Closed => true,
        }
    }
}

/// A control's value as a number (sliders: reals; checkboxes: 0 or 1).
pub fn value_number(v: &Value) -> Option<f64> {
    v.as_f64()
}
