% An undefined name gets the closest names in scope, builtins and bundled functions
% included; a bundled function says which module to import; a MATLAB function name
% gets its Quasar spelling.
% ==
% error: (?s)did_you_mean\.q:7:5: error: undefined variable or function `linspcae`.*did you mean `linspace`\?.*did_you_mean\.q:8:7: error: undefined variable or function `image_widht`.*did you mean `image_width`\?.*did_you_mean\.q:9:5: error: undefined variable or function `imfilter`.*`imfilter` is defined in imfilter\.q: add `import "imfilter\.q"`.*did_you_mean\.q:10:5: error: undefined variable or function `medfilt2`.*`medfilt2` is MATLAB's; in Quasar write `immedfilt\(x, r\)` \(r the radius\), after `import "immedfilt\.q"`.*did_you_mean\.q:11:5: error: undefined variable or function `sqrtt`.*did you mean `sqrt`\?
image_width = 3
x = linspcae(0, 1, 3)
print image_widht
y = imfilter(x, x)
z = medfilt2(x)
w = sqrtt(2)
