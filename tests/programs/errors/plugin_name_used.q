% A plugin import only warns; a use of one of the plugin's names is a located error.
% ==
% error: plugin_name_used\.q:5:5: error: `vidopen` comes from Quasar\.Video\.dll, which Blazar does not provide
import "Quasar.Video.dll"
v = vidopen("clip.avi")
print 1
