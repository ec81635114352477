% `onchange.add` takes a function; a number is an error at the call.
% ==
% options { --ui none }
% error: form_callback_type\.q:8:1: error: add: expected a function to call \(`\(\) -> \.\.\.`\), got
import "Quasar.UI.dll"
frm = form("bad")
c = frm.add_checkbox("on", true)
c.onchange.add(3)
