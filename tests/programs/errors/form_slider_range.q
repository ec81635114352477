% A slider whose minimum is above its maximum is an error at the call.
% ==
% options { --ui none }
% error: form_slider_range\.q:10:5: error: add_slider: the minimum 10 is greater than the maximum 1
import "Quasar.UI.dll"
frm = form("bad")
print "before"
lo = 10
hi = 1
s = frm.add_slider("gain", 5, lo, hi)
print "not reached"
