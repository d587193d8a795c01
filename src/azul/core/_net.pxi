# The value network's forward pass in C (``azul.learn.net``), for the search's leaves: included
# in ``azul/<game>/_core.pyx`` after ``_common.pxi``. ``Weights`` holds a network's float32
# arrays; ``net_forward`` computes ``Net.value`` of one observation without the GIL. The sums
# run in another order than numpy's, so values agree to float32 rounding, not bit for bit.

cdef enum:
    NET_MAXLAYERS = 8  # azul.learn.net.MAX_LAYERS
    NET_MAXWIDTH = 1024  # azul.learn.net.MAX_WIDTH
    NET_MAXIN = 4096  # room for any game's observation


cdef struct Layer:
    int nin, nout
    float* w  # nin x nout, row by row: w[i * nout + j]
    float* b


cdef struct NetC:
    int nin, nlayers
    float* scale
    Layer layers[NET_MAXLAYERS]


cdef class Weights:
    """A value network's weights as C arrays: ``Weights(scale, ws, bs)`` from float32 arrays
    (``azul.learn.net.Net.compiled`` makes it), shapes as in the weights file."""

    cdef NetC net
    cdef float* data  # every array, one after the other

    def __cinit__(self, scale, ws, bs):
        cdef const float[:, ::1] m
        cdef int i, k, n = len(ws), total, width, at = 0
        if not 1 <= n <= NET_MAXLAYERS or len(bs) != n:
            raise AzulError(f"a network needs 1 to {NET_MAXLAYERS} layers, each a w and a b")
        width = len(scale)
        if not 1 <= width <= NET_MAXIN:
            raise AzulError(f"a network's input has 1 to {NET_MAXIN} entries, not {width}")
        total = width
        for i in range(n):
            total += ws[i].shape[0] * ws[i].shape[1] + ws[i].shape[1]
        self.data = <float*>malloc(total * sizeof(float))
        if self.data == NULL:
            raise MemoryError()
        self.net.nin, self.net.nlayers = width, n
        self.net.scale = self._put(scale, width, &at)
        for i in range(n):
            m = ws[i]
            if m.shape[0] != width or (m.shape[1] != 1 if i == n - 1 else m.shape[1] > NET_MAXWIDTH):
                raise AzulError(f"layer {i} has shape {m.shape[0]}x{m.shape[1]}: it does not fit")
            self.net.layers[i].nin, self.net.layers[i].nout = m.shape[0], m.shape[1]
            self.net.layers[i].w = self.data + at
            for k in range(m.shape[0]):
                memcpy(self.data + at, &m[k, 0], m.shape[1] * sizeof(float))
                at += m.shape[1]
            self.net.layers[i].b = self._put(bs[i], m.shape[1], &at)
            width = m.shape[1]

    cdef float* _put(self, const float[::1] v, int n, int* at) except NULL:
        if v.shape[0] != n:
            raise AzulError(f"a vector of {v.shape[0]} entries where {n} were expected")
        cdef float* out = self.data + at[0]
        memcpy(out, &v[0], n * sizeof(float))
        at[0] += n
        return out

    def __dealloc__(self):
        free(self.data)

    @property
    def observation_size(self):
        return self.net.nin


cdef float net_forward(NetC* net, const float* obs) noexcept nogil:
    """``Net.value`` of one observation: ReLU layers, then the one linear output (points).
    Zero inputs are skipped: observations are mostly zeros, and so are ReLU outputs."""
    cdef float x[NET_MAXIN]
    cdef float y[NET_MAXWIDTH]
    cdef float* cur = x
    cdef float* nxt
    cdef float v
    cdef int i, j, k, n = net.nin, m
    cdef Layer* L
    for i in range(n):
        x[i] = obs[i] * net.scale[i]
    for k in range(net.nlayers):
        L = &net.layers[k]
        m = L.nout
        nxt = &y[0] if cur == &x[0] else &x[0]
        for j in range(m):
            nxt[j] = 0
        for i in range(n):
            v = cur[i]
            if v != 0:
                _axpy(m, v, L.w + i * m, nxt)
        for j in range(m):
            nxt[j] += L.b[j]
            if k < net.nlayers - 1 and nxt[j] < 0:
                nxt[j] = 0
        cur, n = nxt, m
    return cur[0]


cdef inline void _axpy(int m, float v, const float* row, float* out) noexcept nogil:
    """out += v * row, over m entries (a loop the compiler vectorises)."""
    cdef int j
    for j in range(m):
        out[j] += v * row[j]
