% The shared-memory caching transform (seed 003): a histogram loop whose body asks for
% `!kernel_transform enable="sharedmemcaching"` and `!kernel_arg name=...; numel=N`
% updates a per-block copy of the bins in shared memory and adds it to the bins once per
% block. The attributes can come from a macro, under `if $target("gpu")` or for every
% target; `!kernel_tiling dims=[...]` sets the block shape (here 4×64×3 threads, or on
% the GPU only). Results equal the serial loop's.
% ==
% stdout {
% direct: 1 196608
% macro: 1 196608
% gpu only: 1 196608
% }
function r = same(a, b)
    r = sum(a == b) == numel(a)
end
macro [] = bins_everywhere()
    !kernel_transform enable="sharedmemcaching"
    !kernel_arg name=h; type="inout"; access="shared"; op="+="; cache_slices=h[:]; numel=64
endmacro
macro [] = bins_on_gpu()
    if $target("gpu")
        !kernel_transform enable="sharedmemcaching"
        !kernel_arg name=h; type="inout"; access="shared"; op="+="; cache_slices=h[:]; numel=64
        !kernel_tiling dims=[64,64,1]; mode="global"; target="gpu"
    endif
endmacro
img = zeros(256, 256, 3)
for y = 0..255
    for x = 0..255
        for c = 0..2
            img[y, x, c] = mod(y * 5 + x * 3 + c * 11 + y * x, 64)
        end
    end
end
ref = zeros(64)
#pragma force_serial
for y = 0..255
    for x = 0..255
        for c = 0..2
            ref[img[y, x, c]] += 1
        end
    end
end

h = zeros(64)
for y = 0..255
    for x = 0..255
        for c = 0..2
            !kernel_transform enable="sharedmemcaching"
            !kernel_arg name=h; type="inout"; access="shared"; op="+="; cache_slices=h[:]; numel=64
            !kernel_tiling dims=[4, 64, 3]; mode="global"
            h[img[y, x, c]] += 1
        end
    end
end
print "direct: ", same(h, ref), " ", sum(h)

h = zeros(64)
for y = 0..255
    for x = 0..255
        for c = 0..2
            !bins_everywhere
            h[img[y, x, c]] += 1
        end
    end
end
print "macro: ", same(h, ref), " ", sum(h)

h = zeros(64)
!parallel for
for y = 0..255
    for x = 0..255
        for c = 0..2
            !bins_on_gpu
            h[img[y, x, c]] += 1
        end
    end
end
print "gpu only: ", same(h, ref), " ", sum(h)
