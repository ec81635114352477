% Named arguments to overloaded functions: the call goes to the overloads whose
% parameter names fit it (positional arguments first, skipped parameters taking their
% defaults), and the argument types choose among those that remain.
% ==
% stdout {
% 6
% 12
% 20
% int 6
% scalar 0.75
% int 12
% abab
% moved to 5,1
% moved to 5,2
% moved to 7,0
% }
function y = area(width : scalar, height : scalar)
    y = width * height
end
function y = area(radius : scalar)
    y = 3 * radius * radius
end
function y = scale(v : int, by : int = 2)
    y = sprintf("int %d", v * by)
end
function y = scale(v : scalar, by : scalar = 0.5)
    y = sprintf("scalar %g", v * by)
end
function y = scale(text : string, times : int)
    y = text
    for k = 2..times
        y = strcat(y, text)
    end
end
function y = move(x : int, dx : int = 1, dy : int = 0)
    y = sprintf("moved to %d,%d", x + dx, dy)
end
function y = move(p : vec, dx : scalar = 1)
    y = sprintf("moved by %g", dx)
end
print area(height := 2, width := 3)
print area(radius := 2)
print area(4, height := 5)
print scale(v := 3)
print scale(v := 1.5)
print scale(by := 3, v := 4)
print scale(times := 2, text := "ab")
print move(4, dy := 1)
print move(x := 3, dy := 2, dx := 2)
print move(dx := 7, x := 0)
