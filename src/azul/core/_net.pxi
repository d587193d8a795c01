# The value network's forward pass in C (``azul.learn.net``), for the search's leaves: included
# in ``azul/<game>/_core.pyx`` after ``_common.pxi``. ``Weights`` holds a network's float32
# arrays; ``net_forward`` computes ``Net.value`` of one observation without the GIL. The sums
# run in another order than numpy's, so values agree to float32 rounding, not bit for bit.

cdef enum:
    NET_MAXLAYERS = 8  # azul.learn.net.MAX_LAYERS
    NET_MAXWIDTH = 1024  # azul.learn.net.MAX_WIDTH
    NET_MAXIN = 4096  # room for any game's observation


cdef extern from *:
    """
    /* out += v * row over m entries. restrict: the two never overlap, so that it vectorises;
       noinline: inlined into the layer's loop, GCC 12 jams two rows and vectorises neither */
    static __attribute__((noinline)) void azul_net_axpy(int m, float v, const float *restrict row,
                                                        float *restrict out) {
        for (int j = 0; j < m; j++) out[j] += v * row[j];
    }
    """
    void net_axpy "azul_net_axpy"(int m, float v, const float* row, float* out) nogil


cdef struct Features:
    # an observation as its non-zero entries, as the cores' ``_features`` write it: the search
    # reads these, never the full vector, most of which is zeros
    int n
    int at[NET_MAXIN]
    float val[NET_MAXIN]


cdef inline void put(Features* f, int i, float v) noexcept nogil:
    """Entry ``i`` of the observation is ``v`` (kept only if it is not 0, without a branch:
    which entries are zero is unpredictable). Each entry is put at most once."""
    f.at[f.n], f.val[f.n] = i, v
    f.n += v != 0


cdef inline void scatter(const Features* f, float* out, int size) noexcept nogil:
    """The full observation of ``size`` entries from its non-zero ones."""
    cdef int i
    for i in range(size):
        out[i] = 0
    for i in range(f.n):
        out[f.at[i]] = f.val[i]


cdef struct Layer:
    int nin, nout
    float* w  # nin x nout, row by row: w[i * nout + j]
    float* b


cdef struct NetC:
    int nin, nlayers
    bint residual  # the output is a correction added to the hand evaluation (azul.learn.net)
    float* scale
    Layer layers[NET_MAXLAYERS]


cdef class Weights:
    """A value network's weights as C arrays: ``Weights(scale, ws, bs, residual=False)`` from
    float32 arrays (``azul.learn.net.Net.compiled`` makes it), shapes as in the weights file;
    ``residual``: the search adds the hand evaluation to the network's output."""

    cdef NetC net
    cdef float* data  # every array, one after the other

    def __cinit__(self, scale, ws, bs, bint residual=False):
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
        self.net.nin, self.net.nlayers, self.net.residual = width, n, residual
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

    @property
    def residual(self):
        return self.net.residual


cdef float net_forward(NetC* net, const Features* obs) noexcept nogil:
    """``Net.value`` of one observation, given by its non-zero entries: ReLU layers, then the
    one linear output (points). Each layer adds the rows of weights of its non-zero inputs,
    in their order; a layer's outputs are packed to their non-zero entries (ReLU outputs are
    mostly zeros) for the next."""
    cdef float val[NET_MAXWIDTH]
    cdef int at[NET_MAXWIDTH]
    cdef float y[NET_MAXWIDTH]
    cdef float v
    cdef int i, j, k, nz = 0, m
    cdef Layer* L
    for k in range(net.nlayers):
        L = &net.layers[k]
        m = L.nout
        for j in range(m):
            y[j] = 0
        if k == 0:
            for i in range(obs.n):
                net_axpy(m, obs.val[i] * net.scale[obs.at[i]], L.w + obs.at[i] * m, y)
        else:
            for i in range(nz):
                net_axpy(m, val[i], L.w + at[i] * m, y)
        if k == net.nlayers - 1:
            break
        nz = 0
        for j in range(m):
            v = y[j] + L.b[j]
            if v < 0:  # ReLU
                v = 0
            val[nz], at[nz] = v, j
            nz += v != 0
    return y[0] + L.b[0]
