% A plugin import only warns, and so does a call of one of the plugin's functions;
% running the call is a located error that names the plugin.
% ==
% error: plugin_name_used\.q:6:5: error: `subplot` comes from Quasar\.UI\.dll, which Blazar does not provide
import "Quasar.UI.dll"
v = subplot(1, 2, 1)
print 1
