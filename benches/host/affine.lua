-- Twin of affine.q in Lua (run by LuaJIT through lupa).
local s = 0.0
for i = 0, 999999 do
    s = 0.5 * s + i
end
print(s)
