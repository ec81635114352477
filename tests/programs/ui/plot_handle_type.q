% `qplot`, the type published programs give a display's plot (`f : qplot =
% disp.plot(x, y)`), is the figure handle's type: a typed variable holds it and its
% methods work.
% ==
% options { --ui none }
% stdout {
% [480,640,3]
% figure 1: wrote plot_handle_type_figure1.png, plot_handle_type_figure1.svg
% }
import "Quasar.UI.dll"
frm = form("Curve")
disp = frm.add_display()
x = 0..0.25..1
f : qplot = disp.plot(x, x.^2)
print size(f.rasterize())
