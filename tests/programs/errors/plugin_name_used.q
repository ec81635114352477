% A plugin import only warns, and so does a call of one of the plugin's functions;
% running the call is a located error that names the plugin.
% ==
% error: plugin_name_used\.q:6:5: error: `vidopen` comes from Quasar\.Video\.dll, which Blazar does not provide
import "Quasar.Video.dll"
v = vidopen("clip.avi")
print 1
