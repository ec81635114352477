% Calls of an unavailable plugin's functions (any undefined function a program importing
% a plugin Blazar does not provide calls) pass `check` with warnings and fail only when
% they run, so the rest of the program works; vidopen is a builtin.
% ==
% stdout {
% frames: 0
% done 6
% }
import "Quasar.Runtime.dll"
function [] = show_frames(n, live)
    if live
        stream = vidopen("camera.avi")
        for k = 0..n-1
            frame = vidreadframe(stream)
            imshow_live(frame)
        end
    end
    print "frames: ", 0
end
show_frames(3, false)
print "done ", sum([1, 2, 3])
