% An undefined function called by a program that imports a plugin may be the plugin's:
% `check` warns, and the call is an error when it runs.
% ==
% error: plugin_unknown_call\.q:7:1: error: `draw_overlay` is not defined; it may come from Quasar\.UI\.dll, which Blazar does not provide
import "Quasar.UI.dll"
print "before"
draw_overlay(1, 2)
