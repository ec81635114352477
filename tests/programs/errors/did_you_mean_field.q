% A missing field of an object names the closest field.
% ==
% error: did_you_mean_field\.q:7:7: error: the object has no field `widht`; did you mean `width`\?
o = object()
o.width = 3
o.height = 4
print o.widht
