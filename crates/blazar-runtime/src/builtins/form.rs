//! Forms, the `Quasar.UI.dll` plugin: `frm = form("title")` and its methods
//! `frm.add_slider(label, init, min, max)`, `frm.add_checkbox(label, init)`,
//! `frm.add_heading(text)`, `frm.add_button(label)`, `frm.add_display()`,
//! `frm.wait()`, `frm.center()`, and the controls' `ctrl.onchange.add(f)` /
//! `button.onclick.add(f)`.
//!
//! A form and its controls are plain objects whose methods are builtins bound to the
//! form or control (the mechanism of figure handles): `frm.add_slider(...)` calls the
//! builtin `.add_slider` with the form first. The names of these builtins start with
//! a dot, so no program can call them by name. Each control's object holds `value`,
//! which the interpreter updates when the page reports a change before it runs the
//! control's callbacks (`crate::ui`). Without a page (`--ui none`), controls keep their
//! initial values and each `onchange` callback runs once, right after it is added, as
//! if the page had set every control to its initial value; buttons are never clicked.
//! Displays are in `figure/display.rs`.

use super::math::bi;
use super::{Builtin, Ctx};
use crate::ui::{Control, ControlKind, Display, ToPage};
use crate::value::{Closure, FuncRef, Object};
use crate::{rt_bail, RtError, RtResult, Value};
use std::cell::RefCell;
use std::rc::Rc;

pub(super) static TABLE: &[Builtin] = &[
    bi("form", form, 1, 1).doc(
        "frm = form(title)",
        "Opens a form (the `Quasar.UI.dll` plugin): a browser page of controls and displays, served on 127.0.0.1 (`--ui browser`), or nothing shown (`--ui none`: controls keep their initial values). Its methods: `.add_slider`, `.add_checkbox`, `.add_heading`, `.add_button`, `.add_display`, `.wait`, `.center`.",
        "frm = form(\"demo\")\nprint frm.title",
        "demo",
    ),
    bi(".add_slider", add_slider, 1, usize::MAX).doc(
        "s = frm.add_slider(label, init, min, max)",
        "Adds a slider from min to max starting at init; `s.value` is its value, `s.onchange.add(f)` runs `f()` after each change.",
        "frm = form(\"demo\")\ns = frm.add_slider(\"gain\", 2, 0, 10)\nprint s.value",
        "2",
    ),
    bi(".add_checkbox", add_checkbox, 1, usize::MAX).doc(
        "c = frm.add_checkbox(label, init)",
        "Adds a check box, ticked when init is true; `c.value` is 1 or 0, `c.onchange.add(f)` runs `f()` after each change.",
        "frm = form(\"demo\")\nc = frm.add_checkbox(\"denoise\", true)\nprint c.value",
        "1",
    ),
    bi(".add_heading", add_heading, 1, usize::MAX).doc(
        "frm.add_heading(text)",
        "Adds a heading above the controls that follow it.",
        "frm = form(\"demo\")\nfrm.add_heading(\"Parameters\")\nprint \"ok\"",
        "ok",
    ),
    bi(".add_button", add_button, 1, usize::MAX).doc(
        "b = frm.add_button(label)",
        "Adds a button; `b.onclick.add(f)` runs `f()` after each click (never without a page).",
        "frm = form(\"demo\")\nb = frm.add_button(\"Reset\")\nprint b.label",
        "Reset",
    ),
    bi(".wait", wait, 1, usize::MAX).doc(
        "frm.wait()",
        "Serves the page until it is closed (or Ctrl-C), running callbacks as the user changes controls; returns at once without a page.",
        "frm = form(\"demo\")\nfrm.wait()\nprint \"done\"",
        "done",
    ),
    bi(".center", layout, 1, usize::MAX).doc(
        "frm.center()",
        "Would center the form's window on the screen; the page has no window to move, so it does nothing.",
        "frm = form(\"demo\")\nfrm.center()\nprint \"ok\"",
        "ok",
    ),
    bi(".add", add_callback, 1, usize::MAX).doc(
        "ctrl.onchange.add(f) · button.onclick.add(f)",
        "Runs `f()` after each change of the control (each click of the button), between the program's statements. Without a page, an `onchange` callback runs once, right after it is added.",
        "frm = form(\"demo\")\ns = frm.add_slider(\"n\", 3, 0, 9)\nfunction [] = show()\n    print \"n is \", s.value\nend\ns.onchange.add(show)\nprint \"added\"",
        "n is 3\nadded",
    ),
];

/// A method: builtin `name` bound to `id` (a form's, a control's or a display's).
pub(super) fn method(name: &str, id: usize) -> Value {
    let b = super::lookup(name).expect("form methods are builtins");
    Value::Func(Rc::new(Closure {
        func: FuncRef::Builtin(b),
        captures: vec![Value::int(id as i64)],
    }))
}

pub(super) fn object(fields: Vec<(&str, Value)>) -> Rc<RefCell<Object>> {
    Rc::new(RefCell::new(Object {
        class: None,
        fields: fields.into_iter().map(|(n, v)| (Rc::from(n), v)).collect(),
    }))
}

/// The bound id a method receives first.
pub(super) fn bound_id(v: &Value) -> usize {
    v.as_f64().map_or(usize::MAX, |x| x as usize)
}

/// The arguments after the bound one, checked to be `min..=max` of them.
pub(super) fn rest<'a>(
    who: &str,
    args: &'a [Value],
    min: usize,
    max: usize,
) -> RtResult<&'a [Value]> {
    let rest = &args[1..];
    if rest.len() < min || rest.len() > max {
        let want = if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        };
        rt_bail!("{who} takes {want} arguments, got {}", rest.len());
    }
    Ok(rest)
}

pub(super) fn text(who: &str, what: &str, v: &Value) -> RtResult<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        v => rt_bail!("{who}: the {what} must be a string, got {}", v.kind_name()),
    }
}

pub(super) fn number(who: &str, what: &str, v: &Value) -> RtResult<f64> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        Some(x) => rt_bail!("{who}: the {what} must be finite, got {x}"),
        None => rt_bail!("{who}: the {what} must be a number, got {}", v.kind_name()),
    }
}

fn form(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let title = text("form", "title", &args[0])?;
    if !ctx.ui.started {
        ctx.ui.started = true;
        match ctx.ui.host().start() {
            Ok(Some(addr)) => eprintln!("blazar: the form is at {addr}"),
            Ok(None) => {}
            Err(e) => rt_bail!("form: cannot show the form: {e}"),
        }
    }
    ctx.ui.host().send(ToPage::Form {
        title: title.clone(),
    });
    let obj = object(vec![
        ("title", Value::str(&title)),
        ("width", Value::int(0)),
        ("height", Value::int(0)),
        ("add_slider", method(".add_slider", 0)),
        ("add_checkbox", method(".add_checkbox", 0)),
        ("add_heading", method(".add_heading", 0)),
        ("add_button", method(".add_button", 0)),
        ("add_display", method(".add_display", 0)),
        ("wait", method(".wait", 0)),
        ("center", method(".center", 0)),
    ]);
    Ok(Value::Object(obj))
}

/// Adds a control whose object has `fields` besides `label`, `value` and the event
/// list (`onchange`, or `onclick` for a button).
fn control(ctx: &mut Ctx, kind: ControlKind, label: &str, value: f64, range: (f64, f64)) -> Value {
    let id = ctx.ui.controls.len();
    let events = Value::Object(object(vec![("add", method(".add", id))]));
    let mut fields = vec![("label", Value::str(label))];
    match kind {
        ControlKind::Slider => {
            fields.push(("value", Value::Real(value)));
            fields.push(("minimum", Value::Real(range.0)));
            fields.push(("maximum", Value::Real(range.1)));
            fields.push(("onchange", events));
        }
        ControlKind::Checkbox => {
            fields.push(("value", Value::int(value as i64)));
            fields.push(("onchange", events));
        }
        ControlKind::Button => fields.push(("onclick", events)),
    }
    let obj = object(fields);
    ctx.ui.controls.push(Control {
        kind,
        object: obj.clone(),
        callbacks: Vec::new(),
        shown: value,
        min: range.0,
        max: range.1,
    });
    Value::Object(obj)
}

fn add_slider(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let who = "add_slider";
    let a = rest(who, args, 4, 4)?;
    let label = text(who, "label", &a[0])?;
    let init = number(who, "initial value", &a[1])?;
    let min = number(who, "minimum", &a[2])?;
    let max = number(who, "maximum", &a[3])?;
    if min > max {
        rt_bail!("{who}: the minimum {min} is greater than the maximum {max}");
    }
    if init < min || init > max {
        rt_bail!("{who}: the initial value {init} is outside {min}..{max}");
    }
    let id = ctx.ui.controls.len();
    ctx.ui.host().send(ToPage::Slider {
        id,
        label: label.clone(),
        value: init,
        min,
        max,
    });
    Ok(control(ctx, ControlKind::Slider, &label, init, (min, max)))
}

fn add_checkbox(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let who = "add_checkbox";
    let a = rest(who, args, 1, 2)?;
    let label = text(who, "label", &a[0])?;
    let on = match a.get(1) {
        None => false,
        Some(v) => number(who, "initial value", v)? != 0.0,
    };
    let id = ctx.ui.controls.len();
    ctx.ui.host().send(ToPage::Checkbox {
        id,
        label: label.clone(),
        value: on,
    });
    let v = if on { 1.0 } else { 0.0 };
    Ok(control(ctx, ControlKind::Checkbox, &label, v, (0.0, 1.0)))
}

fn add_heading(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = rest("add_heading", args, 1, 1)?;
    let t = text("add_heading", "text", &a[0])?;
    ctx.ui.host().send(ToPage::Heading { text: t });
    Ok(Value::int(0))
}

fn add_button(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = rest("add_button", args, 1, 1)?;
    let label = text("add_button", "label", &a[0])?;
    let id = ctx.ui.controls.len();
    ctx.ui.host().send(ToPage::Button {
        id,
        label: label.clone(),
    });
    Ok(control(ctx, ControlKind::Button, &label, 0.0, (0.0, 0.0)))
}

/// `frm.wait()`: the interpreter serves the page before its next statement (or when
/// the program ends) until the page is closed.
fn wait(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    rest("wait", args, 0, 0)?;
    if ctx.ui.page_open() {
        ctx.ui.waiting = true;
        ctx.ui.mark_due();
    }
    Ok(Value::int(0))
}

fn layout(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    rest("center", args, 0, 0)?;
    Ok(Value::int(0))
}

/// `ctrl.onchange.add(f)` / `button.onclick.add(f)`.
fn add_callback(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = rest("add", args, 1, 1)?;
    let f = &a[0];
    if !matches!(f, Value::Func(_)) {
        rt_bail!(
            "add: expected a function to call (`() -> ...`), got {}",
            f.kind_name()
        );
    }
    let id = bound_id(&args[0]);
    let interactive = ctx.ui.interactive();
    let c = ctx
        .ui
        .controls
        .get_mut(id)
        .ok_or_else(|| RtError::new("add: not a control's event list"))?;
    c.callbacks.push(f.clone());
    if !interactive && c.kind != ControlKind::Button {
        ctx.ui.queue.push(f.clone());
        ctx.ui.mark_due();
    }
    Ok(Value::int(0))
}

/// A display of the form (`frm.add_display()`).
pub(super) fn new_display(ctx: &mut Ctx) -> usize {
    let id = ctx.ui.displays.len();
    ctx.ui.displays.push(Display {
        rows: 1,
        cols: 1,
        current: 0,
        panels: vec![None],
        drawn: Default::default(),
        stale: Default::default(),
    });
    ctx.ui.host().send(ToPage::Display {
        id,
        rows: 1,
        cols: 1,
    });
    id
}
