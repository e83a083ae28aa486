// Elementwise kernels: source generation, the per-family kernel cache, iteration layout
// (broadcasting, axis merging) and launch configuration.
#include "array/elementwise.h"
#include <algorithm>
#include <cctype>
#include <cstring>
#include "runtime/current_stream.h"
#include "support/error.h"
#include "support/scratch_lease.h"
#include "types/promote.h"

namespace simt {

namespace {

// Elements one cpu "thread" handles as a contiguous run (vectorized by the host compiler).
constexpr uint64_t kCpuChunk = 16384;
// GPU launches: threads per block and the most blocks of the grid-stride loop.
constexpr int64_t kGpuBlock = 256;
constexpr int64_t kGpuMaxBlocks = 65535;

std::string name_of(DType d) { return dtype_name(d); }

// Kernel-language code converting `code` (of dtype `from`) to dtype `to`.
std::string convert(const std::string& code, DType from, DType to) {
    if (from == to) return code;
    if (dtype_is_complex(from) && !dtype_is_complex(to)) {
        if (to == DType::Bool) return "(" + code + " != 0)";
        return convert("(" + code + ").real", from == DType::Complex64 ? DType::Float32 : DType::Float64, to);
    }
    // C++ has no single best conversion from 32/64-bit unsigned integers to the half type.
    if (to == DType::Float16 && (from == DType::UInt32 || from == DType::UInt64))
        return "float16(float64(" + code + "))";
    return name_of(to) + "(" + code + ")";
}

std::string identifier(const std::string& name) {
    std::string out;
    for (char c : name) out += (std::isalnum((unsigned char)c) || c == '_') ? c : '_';
    return out;
}

// Appends each non-empty line of `body` to `out` with `indent` in front.
void append_indented(std::string& out, const std::string& body, const char* indent) {
    size_t start = 0;
    while (start < body.size()) {
        size_t end = body.find('\n', start);
        if (end == std::string::npos) end = body.size();
        if (end > start) out += indent + body.substr(start, end - start) + "\n";
        start = end + 1;
    }
}

bool is_scalar_operand(uint8_t code) { return code & 0x80; }
DType operand_dtype(uint8_t code) { return DType(code & 0x7f); }

}  // namespace

GlobalValue elementwise_builtin_name(const std::string& name) {
    if (name == "cuda") return GlobalValue::module("cuda");
    if (name == "math") return GlobalValue::module("math");
    if (name == "cmath") return GlobalValue::module("cmath");
    if (name == "ew") return GlobalValue::module("elementwise");
    for (const char* f : {"min", "max", "abs", "complex", "int", "float", "len", "range", "round"})
        if (name == f) return GlobalValue::function(name);
    DType d;
    if (dtype_from_name(name, d) && name != "float" && name != "complex" && name != "int") return GlobalValue::dtype_obj(d);
    return GlobalValue::undefined();
}

std::string elementwise_source(const std::string& name, const ElementwiseLoop& loop,
                               const std::vector<uint8_t>& operands, int path) {
    size_t nin = loop.in_types.size(), nout = loop.out_types.size();
    std::string params = "_n, _per, _span, _step";
    for (size_t i = 0; i < nin; ++i) params += ", _in" + std::to_string(i);
    for (size_t i = 0; i < nout; ++i) params += ", _out" + std::to_string(i);
    std::string index = "_i";
    if (path > 1) {
        index.clear();
        for (int k = 0; k < path; ++k) index += (k ? ", _k" : "_k") + std::to_string(k);
    }
    std::string s = "def elementwise_" + identifier(name) + "(" + params + "):\n";
    s += "    _i = uint64(cuda.grid(1)) * _per\n";
    s += "    _end = min(_i + _span, _n)\n";
    for (int k = 1; k < path; ++k) s += "    _d" + std::to_string(k) + " = uint64(_out0.shape[" + std::to_string(k) + "])\n";
    auto input_value = [&](size_t i, const std::string& raw) {
        DType from = operand_dtype(operands[i]);
        if (is_scalar_operand(operands[i])) {
            DType carrier = scalar_carrier(from);
            std::string v = convert(raw, carrier, from);
            return loop.in_uncast.size() > i && loop.in_uncast[i] ? v : convert(v, from, loop.in_types[i]);
        }
        return loop.in_uncast.size() > i && loop.in_uncast[i] ? raw : convert(raw, from, loop.in_types[i]);
    };
    for (size_t i = 0; i < nin; ++i)
        if (is_scalar_operand(operands[i])) s += "    x" + std::to_string(i) + " = " + input_value(i, "_in" + std::to_string(i)) + "\n";
    s += "    while _i < _end:\n";
    if (path > 1) {
        s += "        _r = _i\n";
        for (int k = path - 1; k >= 1; --k) {
            std::string ks = std::to_string(k);
            s += "        _k" + ks + " = _r % _d" + ks + "\n";
            s += "        _r = _r // _d" + ks + "\n";
        }
        s += "        _k0 = _r\n";
    }
    for (size_t i = 0; i < nin; ++i)
        if (!is_scalar_operand(operands[i]))
            s += "        x" + std::to_string(i) + " = " + input_value(i, "_in" + std::to_string(i) + "[" + index + "]") + "\n";
    append_indented(s, loop.body, "        ");
    for (size_t j = 0; j < nout; ++j) {
        DType R = loop.out_types[j], out = operand_dtype(operands[nin + j]);
        std::string y = "y" + std::to_string(j);
        s += "        _out" + std::to_string(j) + "[" + index + "] = " + convert(name_of(R) + "(" + y + ")", R, out) + "\n";
    }
    s += "        _i += _step\n";
    return s;
}

bool ElementwiseFamily::Key::operator==(const Key& o) const {
    // Unused operand slots are zero in every key: one fixed-size compare (inlined, no call).
    if (loop_id != o.loop_id || path != o.path || count != o.count) return false;
    for (size_t i = 0; i < sizeof operands; i += 8) {  // word by word: inlined, where memcmp was a call
        uint64_t a, b;
        std::memcpy(&a, operands + i, 8);
        std::memcpy(&b, o.operands + i, 8);
        if (a != b) return false;
    }
    return true;
}

size_t ElementwiseFamily::KeyHash::operator()(const Key& k) const {
    size_t h = 1469598103934665603ull ^ size_t(uint32_t(k.loop_id)) ^ (size_t(uint16_t(k.path)) << 32);
    for (int i = 0; i < k.count; ++i) h = (h ^ k.operands[i]) * 1099511628211ull;
    return h;
}

ElementwiseFamily::ElementwiseFamily(std::string name, GlobalResolver extra) : name_(std::move(name)), extra_(std::move(extra)) {}

std::unique_ptr<ElementwiseFamily::Entry> ElementwiseFamily::compile(const Key& key, const ElementwiseLoop& loop) {
    std::vector<uint8_t> operands(key.operands, key.operands + key.count);
    auto entry = std::make_unique<Entry>();
    entry->key = key;
    entry->source = elementwise_source(name_, loop, operands, key.path);
    KernelDefinition def;
    def.name = "elementwise_" + identifier(name_);
    def.source.text = entry->source;
    def.source.filename = "<simt elementwise " + name_ + ">";
    GlobalResolver extra = extra_;
    def.resolve = [extra](const std::string& n) {
        GlobalValue g = elementwise_builtin_name(n);
        if (g.kind == GlobalValue::Kind::Undefined && extra) return extra(n);
        return g;
    };
    def.options.bounds = BoundsMode::Unchecked;  // indices are in range by construction
    entry->dispatcher = std::make_unique<Dispatcher>(std::move(def));
    std::vector<const Type*> types(4, scalar_type(DType::UInt64));
    int nd = key.path == 0 ? 1 : key.path;
    Layout layout = key.path == 0 ? Layout::C : Layout::A;
    for (int i = 0; i < key.count; ++i) {
        uint8_t c = key.operands[i];
        types.push_back(is_scalar_operand(c) ? scalar_type(scalar_carrier(operand_dtype(c)))
                                             : array_type(operand_dtype(c), nd, layout));
    }
    entry->kernel = &entry->dispatcher->specialize(types);
    return entry;
}

ElementwiseFamily::Entry* ElementwiseFamily::find_or_compile(const Key& key, const ElementwiseLoop& loop) {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry* entry;
    auto found = cache_.find(key);
    if (found != cache_.end()) {
        entry = found->second.get();
    } else {
        std::unique_ptr<Entry> fresh = compile(key, loop);
        entry = fresh.get();
        cache_.emplace(key, std::move(fresh));
    }
    last_.store(entry, std::memory_order_release);
    return entry;
}

std::vector<std::string> ElementwiseFamily::sources() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [key, entry] : cache_) out.push_back(entry->source);
    return out;
}

namespace {

// Array operands of one launch with strides broadcast to the iteration shape, then merged:
// axes of length 1 dropped, axes ordered by the first output's strides, and neighbouring
// axes fused where every operand steps through them as one.
struct Iteration {
    int nd = 0;
    int64_t shape[kMaxDims];
    int nops = 0;
    char* data[kMaxElementwiseOperands];
    int64_t itemsize[kMaxElementwiseOperands];
    int64_t strides[kMaxElementwiseOperands][kMaxDims];

    void add(const NdArray& a, const NdArray& out) {
        int offset = out.ndim - a.ndim;
        if (offset < 0) throw Error(ErrorKind::Value, "an elementwise input has more dimensions than the output");
        int k = nops++;
        data[k] = a.data;
        itemsize[k] = a.itemsize();
        for (int i = 0; i < out.ndim; ++i) {
            int j = i - offset;
            if (j < 0 || a.shape[j] == 1) strides[k][i] = 0;
            else if (a.shape[j] == out.shape[i]) strides[k][i] = a.strides[j];
            else throw Error(ErrorKind::Value, "operands could not be broadcast together with shapes " +
                                                   compact_shape(Shape::of(a)) + " " + compact_shape(Shape::of(out)) + " ");
        }
    }

    void merge(const NdArray& out) {
        int axes[kMaxDims];
        int n = 0;
        for (int i = 0; i < out.ndim; ++i) if (out.shape[i] != 1) axes[n++] = i;
        // Outermost first: decreasing stride of the first output (stable for equal strides).
        int first_out = out_index;
        std::stable_sort(axes, axes + n, [&](int x, int y) {
            int64_t sx = strides[first_out][x], sy = strides[first_out][y];
            return (sx < 0 ? -sx : sx) > (sy < 0 ? -sy : sy);
        });
        int64_t ms[kMaxElementwiseOperands][kMaxDims];
        int m = 0;
        for (int a = 0; a < n; ++a) {
            int ax = axes[a];
            if (m > 0) {
                bool fuse = true;
                for (int k = 0; k < nops && fuse; ++k) fuse = ms[k][m - 1] == strides[k][ax] * out.shape[ax];
                if (fuse) {
                    shape[m - 1] *= out.shape[ax];
                    for (int k = 0; k < nops; ++k) ms[k][m - 1] = strides[k][ax];
                    continue;
                }
            }
            shape[m] = out.shape[ax];
            for (int k = 0; k < nops; ++k) ms[k][m] = strides[k][ax];
            ++m;
        }
        nd = m;
        for (int k = 0; k < nops; ++k) for (int i = 0; i < m; ++i) strides[k][i] = ms[k][i];
    }

    // The common case, set up directly: every array operand is C-contiguous with the output's
    // shape, so one flat index walks them all.
    bool flat(const ElementwiseInput* inputs, int nin, NdArray* const* outputs, int nout) {
        const NdArray& out0 = *outputs[0];
        if (!out0.c_contiguous()) return false;
        auto fits = [&](const NdArray& a) {
            if (a.ndim != out0.ndim || !a.c_contiguous()) return false;
            for (int i = 0; i < a.ndim; ++i) if (a.shape[i] != out0.shape[i]) return false;
            return true;
        };
        for (int i = 0; i < nin; ++i) if (inputs[i].array && !fits(*inputs[i].array)) return false;
        for (int j = 1; j < nout; ++j) if (!fits(*outputs[j])) return false;
        nops = 0;
        auto add_flat = [&](const NdArray& a) {
            data[nops] = a.data;
            itemsize[nops] = a.itemsize();
            strides[nops][0] = itemsize[nops];
            ++nops;
        };
        for (int i = 0; i < nin; ++i) if (inputs[i].array) add_flat(*inputs[i].array);
        out_index = nops;
        for (int j = 0; j < nout; ++j) add_flat(*outputs[j]);
        nd = 1;
        shape[0] = out0.size();
        return true;
    }

    bool contiguous() const {
        if (nd == 0) return true;
        if (nd > 1) return false;
        for (int k = 0; k < nops; ++k) if (strides[k][0] != itemsize[k]) return false;
        return true;
    }

    int out_index = 0;  // operand index of the first output
};


}  // namespace

void ElementwiseFamily::run(int loop_id, const ElementwiseLoop& loop, const ElementwiseInput* inputs, int nin,
                            NdArray* const* outputs, int nout) {
    if (nin + nout > kMaxElementwiseOperands)
        raise(ErrorKind::Value, "an elementwise kernel takes at most %d operands, got %d", kMaxElementwiseOperands, nin + nout);
    const NdArray& out0 = *outputs[0];
    int64_t n = out0.size();
    if (n == 0) return;

    Iteration it;
    Key key;
    key.loop_id = loop_id;
    key.count = int16_t(nin + nout);
    for (int i = 0; i < nin; ++i)
        key.operands[i] = inputs[i].array ? uint8_t(inputs[i].array->dtype) : uint8_t(0x80 | uint8_t(inputs[i].scalar.dtype));
    for (int j = 0; j < nout; ++j) key.operands[nin + j] = uint8_t(outputs[j]->dtype);
    if (!it.flat(inputs, nin, outputs, nout)) {
        for (int i = 0; i < nin; ++i)
            if (inputs[i].array) it.add(*inputs[i].array, out0);
        it.out_index = it.nops;
        for (int j = 0; j < nout; ++j) it.add(*outputs[j], out0);
        it.merge(out0);
    }
    bool contiguous = it.contiguous();
    key.path = int16_t(contiguous ? 0 : it.nd);

    Entry* entry = last_.load(std::memory_order_acquire);
    if (!entry || !(entry->key == key)) entry = find_or_compile(key, loop);

    LaunchConfig config;
    config.stream = current_stream();
    uint64_t head[4];  // _n, _per, _span, _step
    if (backend().target() == Target::Cuda) {
        int64_t blocks = std::min((n + kGpuBlock - 1) / kGpuBlock, kGpuMaxBlocks);
        config.grid.x = blocks;
        config.block.x = kGpuBlock;
        head[0] = uint64_t(n); head[1] = 1; head[2] = uint64_t(n); head[3] = uint64_t(blocks * kGpuBlock);
    } else {
        config.grid.x = int64_t((uint64_t(n) + kCpuChunk - 1) / kCpuChunk);
        config.block.x = 1;
        head[0] = uint64_t(n); head[1] = kCpuChunk; head[2] = kCpuChunk; head[3] = 1;
    }

    // Buffers that free in stream order need no reference from a launch on the default stream
    // (their free queues behind it); others stay alive until the launch has run.
    const bool default_stream = config.stream == nullptr;
    ScratchLease<ArgumentPack> lease;
    ArgumentPack& pack = lease.get();
    for (uint64_t h : head) pack.add(&h, 8, 8);
    auto add_array = [&](int k, const NdArray& a) {
        int64_t words[1 + 2 * kMaxDims];
        words[0] = int64_t(reinterpret_cast<uintptr_t>(it.data[k]));
        int nd = contiguous ? 1 : it.nd;
        for (int i = 0; i < nd; ++i) {
            words[1 + i] = contiguous ? n : it.shape[i];
            words[1 + nd + i] = contiguous ? it.itemsize[k] : it.strides[k][i];
        }
        pack.add(words, sizeof(int64_t) * size_t(1 + 2 * nd), 8);
        if (!(default_stream && a.owner_frees_in_stream_order)) pack.keep_alive.push_back(a.owner);
    };
    int k = 0;
    for (int i = 0; i < nin; ++i) {
        if (inputs[i].array) {
            add_array(k++, *inputs[i].array);
        } else {
            // Scalar bytes are already in the carrier type (float16 is held as float32).
            size_t size = size_t(dtype_size(scalar_carrier(inputs[i].scalar.dtype)));
            pack.add(inputs[i].scalar.bytes, size, size >= 8 ? 8 : size);
        }
    }
    for (int j = 0; j < nout; ++j) add_array(k++, *outputs[j]);
    backend().launch(*entry->kernel->loaded, config, pack);
}

namespace {
bool same_kind_cast(DType from, DType to) {
    auto rank = [](DType d) {
        if (d == DType::Bool) return 0;
        if (dtype_is_integer(d)) return dtype_is_signed(d) ? 2 : 1;
        return dtype_is_complex(d) ? 4 : 3;
    };
    return promote(from, to) == to || rank(from) <= rank(to);
}
}  // namespace

Shape broadcast_input_shapes(const ElementwiseInput* inputs, int nin) {
    Shape shape;
    for (int i = 0; i < nin; ++i) {
        const NdArray* a = inputs[i].array;
        if (!a) continue;
        if (a->ndim > shape.ndim) {  // new leading axes start at 1
            int grow = a->ndim - shape.ndim;
            for (int k = shape.ndim - 1; k >= 0; --k) shape.dims[k + grow] = shape.dims[k];
            for (int k = 0; k < grow; ++k) shape.dims[k] = 1;
            shape.ndim = a->ndim;
        }
        int offset = shape.ndim - a->ndim;
        for (int k = 0; k < a->ndim; ++k) {
            int64_t& d = shape.dims[offset + k];
            int64_t e = a->shape[k];
            if (e == d || e == 1) continue;
            if (d == 1) { d = e; continue; }
            std::vector<Shape> all;
            for (int j = 0; j < nin; ++j) if (inputs[j].array) all.push_back(Shape::of(*inputs[j].array));
            broadcast_shapes(all);  // raises NumPy's message naming every shape
        }
    }
    return shape;
}

void elementwise_call(ElementwiseFamily& family, int loop_id, const ElementwiseLoop& loop, const ElementwiseInput* inputs,
                      int nin, NdArray* outputs, const bool* given, int nout, const char* kind, bool fortran_order,
                      bool unsafe_casting) {
    auto what = [&] { return std::string(kind) + " '" + family.name() + "'"; };
    Shape shape = broadcast_input_shapes(inputs, nin);
    NdArray* ptrs[kMaxElementwiseOperands];
    int first_given = -1;  // outputs not given take its shape (simt.fuse gives only the updated arguments)
    for (int j = 0; j < nout; ++j)
        if (given[j] && first_given < 0) first_given = j;
    for (int j = 0; j < nout; ++j) {
        DType result = loop.out_types[size_t(j)];
        if (given[j]) {
            Shape out_shape = Shape::of(outputs[j]);
            if (!broadcastable(shape, out_shape))
                throw Error(ErrorKind::Value, "non-broadcastable output operand with shape " + compact_shape(out_shape) +
                                                  " doesn't match the broadcast shape " + compact_shape(shape));
            if (j > first_given && !(out_shape == Shape::of(outputs[first_given])))
                throw Error(ErrorKind::Value, "the outputs of " + what() + " must all have the same shape");
            if (!unsafe_casting && !same_kind_cast(result, outputs[j].dtype))
                throw Error(ErrorKind::Type, "Cannot cast " + what() + " output from dtype('" + dtype_name(result) +
                                                 "') to dtype('" + dtype_name(outputs[j].dtype) + "') with casting rule 'same_kind'");
        } else {
            Shape s = first_given >= 0 ? Shape::of(outputs[first_given]) : shape;
            outputs[j] = empty_array(result, s.dims, s.ndim, fortran_order);
        }
        ptrs[j] = &outputs[j];
    }
    family.run(loop_id, loop, inputs, nin, ptrs, nout);
}

std::vector<DType> infer_result_dtypes(const ElementwiseLoop& loop, int nout, const GlobalResolver& extra) {
    std::string params;
    for (size_t i = 0; i < loop.in_types.size(); ++i) params += (i ? ", x" : "x") + std::to_string(i);
    std::string text = "def probe(" + params + "):\n";
    append_indented(text, loop.body, "    ");
    SourceText source;
    source.text = text;
    source.filename = "<simt elementwise body>";
    std::vector<const Type*> types;
    for (DType d : loop.in_types) types.push_back(scalar_type(d));
    GlobalResolver resolve = [&extra](const std::string& n) {
        GlobalValue g = elementwise_builtin_name(n);
        if (g.kind == GlobalValue::Kind::Undefined && extra) return extra(n);
        return g;
    };
    std::unique_ptr<CompileUnit> unit = analyze_kernel(source, resolve, types, CompileOptions{});
    std::vector<DType> out;
    for (int j = 0; j < nout; ++j) {
        std::string name = "y" + std::to_string(j);
        const Type* t = nullptr;
        for (const auto& [local, type] : unit->kernel->locals) if (local == name) t = type;
        if (!t || !t->is_scalar())
            throw Error(ErrorKind::Typing, "the elementwise function must produce a number for result " + std::to_string(j) +
                                               (t ? ", not " + t->str() : std::string()));
        out.push_back(t->dtype);
    }
    return out;
}

}  // namespace simt
