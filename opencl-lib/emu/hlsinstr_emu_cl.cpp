// hlsinstr: a subset of the OpenCL 1.2 C API (Khronos CL/cl.h) on top of the CPU emulation
// (hlsinstr_emu.h), so that an ordinary OpenCL host program, and the hlsinstr_ocl_host.h helper
// that `hlsinstr rewrite` generates, run unchanged against the emulated kernels. hlsinstr-emu-build
// compiles and links it when CL/cl.h is installed (Debian: opencl-c-headers).
//
// One platform, one device ("hlsinstr emulation"), one program: the kernels linked into the
// executable, whatever binary or source the host passes to clCreateProgramWith{Binary,Source}.
//
// Supported: clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs, clGetDeviceInfo (name, vendor,
// version, type), clCreateContext(FromType), clCreateCommandQueue, clCreateProgramWithBinary,
// clCreateProgramWithSource, clBuildProgram, clCreateKernel, clSetKernelArg, clCreateBuffer,
// clEnqueueWriteBuffer, clEnqueueReadBuffer, clEnqueueTask, clEnqueueNDRangeKernel, clFinish,
// clFlush, clWaitForEvents, and clRetain*/clRelease* of these objects. Every other OpenCL 1.2
// function prints "hlsinstr emulate: <function> is not supported ..." to stderr and returns
// CL_INVALID_OPERATION (a create function: NULL, with CL_INVALID_OPERATION in errcode_ret).
//
// Execution model. Each command queue is one thread that runs its commands one after another
// (in order, also when created out-of-order); commands of different queues run concurrently,
// so a producer and a consumer kernel on two queues talk through their channel as on the board.
// A kernel command is one hlsinstr_emu::launch (its work-items one after another) with the
// arguments as they were at enqueue time; a cl_mem argument becomes the buffer's host pointer.
// An enqueue's wait list is waited for before the command runs. Blocking reads and writes return
// when done; clFinish when the queue is empty. A launch of hlsinstr_host (the iBuffer host
// interface kernel) waits around itself like hlsinstr_emu::ibuffer_command, so a command reaches
// its unit before the next kernel starts. Errors are the OpenCL codes; argument errors also
// print a line to stderr saying which kernel and argument.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "hlsinstr_emu.h"

#include <functional>
#include <memory>

// The objects behind the opaque handles. `magic` tells a handle of the right kind from garbage
// or a released one (CL_INVALID_<OBJECT>).
enum : uint32_t {
    kPlatformMagic = 0x504c4154,
    kDeviceMagic = 0x44455649,
    kContextMagic = 0x434f4e54,
    kQueueMagic = 0x51554555,
    kProgramMagic = 0x50524f47,
    kKernelMagic = 0x4b45524e,
    kMemMagic = 0x4d454d4f,
    kEventMagic = 0x4556454e,
};

struct _cl_platform_id {
    uint32_t magic;
};
struct _cl_device_id {
    uint32_t magic;
};
struct _cl_context {
    uint32_t magic = kContextMagic;
    std::atomic<int> refs{1};
};
struct _cl_program {
    uint32_t magic = kProgramMagic;
    std::atomic<int> refs{1};
    cl_context context;
};
struct _cl_mem {
    uint32_t magic = kMemMagic;
    std::atomic<int> refs{1};
    size_t size = 0;
    unsigned char* host = nullptr; // the memory kernels see
    bool owned = false;            // allocated here (not CL_MEM_USE_HOST_PTR)
};
struct _cl_event {
    uint32_t magic = kEventMagic;
    std::atomic<int> refs{1};
    std::mutex m;
    std::condition_variable cv;
    bool complete = false;
};

namespace {

// One argument as clSetKernelArg left it.
struct ArgSlot {
    bool set = false;
    std::vector<unsigned char> bytes; // a scalar
    cl_mem mem = nullptr;             // a __global pointer (nullptr: a null buffer)
    bool is_mem = false;
    size_t local = 0; // a __local pointer: bytes to allocate per launch
};

} // namespace

struct _cl_kernel {
    uint32_t magic = kKernelMagic;
    std::atomic<int> refs{1};
    cl_program program;
    std::string name;
    hlsinstr_emu::detail::KernelDef def;
    std::mutex m;
    std::vector<ArgSlot> args;
};

namespace {

struct Command {
    std::function<void()> run;
    std::vector<cl_event> waits; // retained
    cl_event done;               // retained
};

} // namespace

struct _cl_command_queue {
    uint32_t magic = kQueueMagic;
    std::atomic<int> refs{1};
    std::mutex m;
    std::condition_variable cv;
    std::deque<Command> commands;
    size_t pending = 0; // queued or running
    bool stopping = false;
    std::thread worker;
};

namespace {

_cl_platform_id the_platform{kPlatformMagic};
_cl_device_id the_device{kDeviceMagic};

const char* const kPlatformName = "hlsinstr emulation of Intel(R) FPGA SDK for OpenCL(TM)";
const char* const kDeviceName = "hlsinstr emulation";
const char* const kVendor = "hlsinstr";
const char* const kVersion = "OpenCL 1.2 hlsinstr emulation";

template <class T>
bool valid(const T* p, uint32_t magic) {
    return p != nullptr && p->magic == magic;
}

void note(const std::string& line) {
    std::fprintf(stderr, "hlsinstr emulate: %s\n", line.c_str());
    std::fflush(stderr);
}

cl_int unsupported(const char* function) {
    note(std::string(function) +
         " is not supported by the emulated OpenCL API (opencl-lib/emu/hlsinstr_emu_cl.cpp); it returns "
         "CL_INVALID_OPERATION");
    return CL_INVALID_OPERATION;
}

template <class T>
T unsupported_object(const char* function, cl_int* errcode_ret) {
    const cl_int e = unsupported(function);
    if (errcode_ret) *errcode_ret = e;
    return nullptr;
}

// Sets *errcode_ret (if given) and returns `value`.
template <class T>
T with_code(T value, cl_int code, cl_int* errcode_ret) {
    if (errcode_ret) *errcode_ret = code;
    return value;
}

// The clGet*Info protocol for one value of `size` bytes.
cl_int info(const void* value, size_t size, size_t param_value_size, void* param_value, size_t* size_ret) {
    if (param_value) {
        if (param_value_size < size) return CL_INVALID_VALUE;
        std::memcpy(param_value, value, size);
    }
    if (size_ret) *size_ret = size;
    return CL_SUCCESS;
}

cl_int info_string(const char* s, size_t param_value_size, void* param_value, size_t* size_ret) {
    return info(s, std::strlen(s) + 1, param_value_size, param_value, size_ret);
}

void complete(cl_event e) {
    std::lock_guard<std::mutex> lock(e->m);
    e->complete = true;
    e->cv.notify_all();
}

void wait_for(cl_event e) {
    std::unique_lock<std::mutex> lock(e->m);
    e->cv.wait(lock, [e] { return e->complete; });
}

// clRetain* of every object kind.
template <class T>
cl_int retain(T* o, uint32_t magic, cl_int invalid) {
    if (!valid(o, magic)) return invalid;
    ++o->refs;
    return CL_SUCCESS;
}

// Drops a reference to an object that owns nothing else (context, program, event).
template <class T>
void release(T* o) {
    if (--o->refs == 0) {
        o->magic = 0;
        delete o;
    }
}

void release(cl_mem m) {
    if (--m->refs == 0) {
        m->magic = 0;
        if (m->owned) ::operator delete(m->host);
        delete m;
    }
}

void worker(cl_command_queue q) {
    for (;;) {
        Command c;
        {
            std::unique_lock<std::mutex> lock(q->m);
            q->cv.wait(lock, [q] { return q->stopping || !q->commands.empty(); });
            if (q->commands.empty()) return;
            c = std::move(q->commands.front());
            q->commands.pop_front();
        }
        for (cl_event e : c.waits) {
            wait_for(e);
            release(e);
        }
        c.run();
        complete(c.done);
        release(c.done);
        std::lock_guard<std::mutex> lock(q->m);
        --q->pending;
        q->cv.notify_all();
    }
}

void finish(cl_command_queue q) {
    std::unique_lock<std::mutex> lock(q->m);
    q->cv.wait(lock, [q] { return q->pending == 0; });
}

cl_int check_wait_list(cl_uint n, const cl_event* list) {
    if ((n == 0) != (list == nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < n; ++i)
        if (!valid(list[i], kEventMagic)) return CL_INVALID_EVENT_WAIT_LIST;
    return CL_SUCCESS;
}

// Queues `run` on `q` after the wait list; returns its event in *event_out if asked, and waits
// for it if `blocking`. The wait list must have been checked.
void enqueue(cl_command_queue q, std::function<void()> run, cl_uint n, const cl_event* wait_list, cl_event* event_out,
             bool blocking) {
    Command c;
    c.run = std::move(run);
    for (cl_uint i = 0; i < n; ++i) {
        ++wait_list[i]->refs;
        c.waits.push_back(wait_list[i]);
    }
    cl_event done = new _cl_event; // the queue's reference
    c.done = done;
    if (event_out) {
        ++done->refs;
        *event_out = done;
    }
    if (blocking) ++done->refs;
    {
        std::lock_guard<std::mutex> lock(q->m);
        q->commands.push_back(std::move(c));
        ++q->pending;
        q->cv.notify_all();
    }
    if (blocking) {
        wait_for(done);
        release(done);
    }
}

cl_int transfer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset, size_t size, void* host,
                bool to_device, cl_uint n, const cl_event* wait_list, cl_event* event) {
    if (!valid(q, kQueueMagic)) return CL_INVALID_COMMAND_QUEUE;
    if (!valid(buffer, kMemMagic)) return CL_INVALID_MEM_OBJECT;
    if (host == nullptr || offset > buffer->size || size > buffer->size - offset) return CL_INVALID_VALUE;
    const cl_int w = check_wait_list(n, wait_list);
    if (w != CL_SUCCESS) return w;
    ++buffer->refs;
    unsigned char* device = buffer->host + offset;
    unsigned char* h = static_cast<unsigned char*>(host);
    enqueue(q,
            [=] {
                if (to_device)
                    std::memmove(device, h, size);
                else
                    std::memmove(h, device, size);
                release(buffer);
            },
            n, wait_list, event, blocking != CL_FALSE);
    return CL_SUCCESS;
}

std::string kernel_arg(const cl_kernel k, cl_uint index) {
    return "clSetKernelArg: kernel " + k->name + " argument " + std::to_string(index) + ": ";
}

} // namespace

extern "C" {

// ---- platform and device ---------------------------------------------------------------------

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms,
                                                 cl_uint* num_platforms) {
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
    if (platforms) platforms[0] = &the_platform;
    if (num_platforms) *num_platforms = 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                                  size_t param_value_size, void* param_value,
                                                  size_t* param_value_size_ret) {
    if (platform && !valid(platform, kPlatformMagic)) return CL_INVALID_PLATFORM;
    const char* s = nullptr;
    switch (param_name) {
    case CL_PLATFORM_PROFILE: s = "FULL_PROFILE"; break;
    case CL_PLATFORM_VERSION: s = kVersion; break;
    case CL_PLATFORM_NAME: s = kPlatformName; break;
    case CL_PLATFORM_VENDOR: s = kVendor; break;
    case CL_PLATFORM_EXTENSIONS: s = ""; break;
    default: return CL_INVALID_VALUE;
    }
    return info_string(s, param_value_size, param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                               cl_uint num_entries, cl_device_id* devices, cl_uint* num_devices) {
    if (platform && !valid(platform, kPlatformMagic)) return CL_INVALID_PLATFORM;
    if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
    const cl_device_type ours = CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_DEFAULT;
    if (device_type != CL_DEVICE_TYPE_ALL && (device_type & ours) == 0) {
        if (num_devices) *num_devices = 0;
        return CL_DEVICE_NOT_FOUND;
    }
    if (devices) devices[0] = &the_device;
    if (num_devices) *num_devices = 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                                size_t param_value_size, void* param_value,
                                                size_t* param_value_size_ret) {
    if (!valid(device, kDeviceMagic)) return CL_INVALID_DEVICE;
    switch (param_name) {
    case CL_DEVICE_NAME: return info_string(kDeviceName, param_value_size, param_value, param_value_size_ret);
    case CL_DEVICE_VENDOR: return info_string(kVendor, param_value_size, param_value, param_value_size_ret);
    case CL_DEVICE_VERSION: return info_string(kVersion, param_value_size, param_value, param_value_size_ret);
    case CL_DRIVER_VERSION: return info_string("1", param_value_size, param_value, param_value_size_ret);
    case CL_DEVICE_TYPE: {
        const cl_device_type t = CL_DEVICE_TYPE_ACCELERATOR;
        return info(&t, sizeof t, param_value_size, param_value, param_value_size_ret);
    }
    default: {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%x", static_cast<unsigned>(param_name));
        note(std::string("clGetDeviceInfo: parameter ") + hex +
             " is not supported by the emulation (CL_DEVICE_NAME, _VENDOR, _VERSION, _TYPE, CL_DRIVER_VERSION are)");
        return CL_INVALID_VALUE;
    }
    }
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
    return valid(device, kDeviceMagic) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
    return valid(device, kDeviceMagic) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

// ---- context, queue, program, kernel -----------------------------------------------------------

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties*, cl_uint num_devices,
                                                    const cl_device_id* devices,
                                                    void(CL_CALLBACK*)(const char*, const void*, size_t, void*),
                                                    void*, cl_int* errcode_ret) {
    if (num_devices == 0 || devices == nullptr) return with_code<cl_context>(nullptr, CL_INVALID_VALUE, errcode_ret);
    for (cl_uint i = 0; i < num_devices; ++i)
        if (!valid(devices[i], kDeviceMagic)) return with_code<cl_context>(nullptr, CL_INVALID_DEVICE, errcode_ret);
    return with_code<cl_context>(new _cl_context, CL_SUCCESS, errcode_ret);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties*, cl_device_type device_type,
                                                            void(CL_CALLBACK*)(const char*, const void*, size_t, void*),
                                                            void*, cl_int* errcode_ret) {
    cl_uint n = 0;
    const cl_int e = clGetDeviceIDs(nullptr, device_type, 0, nullptr, &n);
    if (e != CL_SUCCESS) return with_code<cl_context>(nullptr, e, errcode_ret);
    return with_code<cl_context>(new _cl_context, CL_SUCCESS, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) { return retain(context, kContextMagic, CL_INVALID_CONTEXT); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
    if (!valid(context, kContextMagic)) return CL_INVALID_CONTEXT;
    release(context);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue_properties, cl_int* errcode_ret) {
    if (!valid(context, kContextMagic)) return with_code<cl_command_queue>(nullptr, CL_INVALID_CONTEXT, errcode_ret);
    if (!valid(device, kDeviceMagic)) return with_code<cl_command_queue>(nullptr, CL_INVALID_DEVICE, errcode_ret);
    cl_command_queue q = new _cl_command_queue;
    q->worker = std::thread(worker, q);
    return with_code(q, CL_SUCCESS, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q) { return retain(q, kQueueMagic, CL_INVALID_COMMAND_QUEUE); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q) {
    if (!valid(q, kQueueMagic)) return CL_INVALID_COMMAND_QUEUE;
    if (--q->refs == 0) {
        finish(q); // releasing a queue flushes it; its commands still run
        {
            std::lock_guard<std::mutex> lock(q->m);
            q->stopping = true;
            q->cv.notify_all();
        }
        q->worker.join();
        q->magic = 0;
        delete q;
    }
    return CL_SUCCESS;
}

static cl_program new_program(cl_context context, cl_int* errcode_ret) {
    if (!valid(context, kContextMagic)) return with_code<cl_program>(nullptr, CL_INVALID_CONTEXT, errcode_ret);
    cl_program p = new _cl_program;
    p->context = context;
    return with_code(p, CL_SUCCESS, errcode_ret);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint, const char**,
                                                              const size_t*, cl_int* errcode_ret) {
    return new_program(context, errcode_ret);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                              const cl_device_id* devices, const size_t*,
                                                              const unsigned char**, cl_int* binary_status,
                                                              cl_int* errcode_ret) {
    if (num_devices == 0 || devices == nullptr) return with_code<cl_program>(nullptr, CL_INVALID_VALUE, errcode_ret);
    for (cl_uint i = 0; i < num_devices; ++i) {
        if (!valid(devices[i], kDeviceMagic)) return with_code<cl_program>(nullptr, CL_INVALID_DEVICE, errcode_ret);
        if (binary_status) binary_status[i] = CL_SUCCESS;
    }
    return new_program(context, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint, const cl_device_id*, const char*,
                                               void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data) {
    if (!valid(program, kProgramMagic)) return CL_INVALID_PROGRAM;
    if (pfn_notify) pfn_notify(program, user_data);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) { return retain(program, kProgramMagic, CL_INVALID_PROGRAM); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
    if (!valid(program, kProgramMagic)) return CL_INVALID_PROGRAM;
    release(program);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
    if (!valid(program, kProgramMagic)) return with_code<cl_kernel>(nullptr, CL_INVALID_PROGRAM, errcode_ret);
    if (kernel_name == nullptr) return with_code<cl_kernel>(nullptr, CL_INVALID_VALUE, errcode_ret);
    hlsinstr_emu::detail::Global& g = hlsinstr_emu::detail::global();
    hlsinstr_emu::detail::KernelDef def;
    {
        std::lock_guard<std::mutex> lock(g.m);
        auto it = g.kernels.find(kernel_name);
        if (it == g.kernels.end() || it->second.autorun) {
            std::string known;
            for (const auto& k : g.kernels)
                if (!k.second.autorun) known += (known.empty() ? "" : ", ") + k.first;
            note(std::string("clCreateKernel: the emulated program has no host-launchable kernel named ") +
                 kernel_name + " (CL_INVALID_KERNEL_NAME); it has: " + (known.empty() ? "none" : known));
            return with_code<cl_kernel>(nullptr, CL_INVALID_KERNEL_NAME, errcode_ret);
        }
        def = it->second;
    }
    cl_kernel k = new _cl_kernel;
    k->program = program;
    ++program->refs;
    k->name = kernel_name;
    k->def = def;
    k->args.resize(def.params);
    return with_code(k, CL_SUCCESS, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) { return retain(kernel, kKernelMagic, CL_INVALID_KERNEL); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
    if (!valid(kernel, kKernelMagic)) return CL_INVALID_KERNEL;
    if (--kernel->refs == 0) {
        for (ArgSlot& a : kernel->args)
            if (a.mem) release(a.mem);
        clReleaseProgram(kernel->program);
        kernel->magic = 0;
        delete kernel;
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                               const void* arg_value) {
    if (!valid(kernel, kKernelMagic)) return CL_INVALID_KERNEL;
    if (arg_index >= kernel->def.params) {
        note(kernel_arg(kernel, arg_index) + "the kernel has " + std::to_string(kernel->def.params) +
             " arguments (CL_INVALID_ARG_INDEX)");
        return CL_INVALID_ARG_INDEX;
    }
    const hlsinstr_emu::detail::ParamInfo p = kernel->def.param_info[arg_index];
    ArgSlot slot;
    if (p.local) {
        if (arg_value != nullptr) {
            note(kernel_arg(kernel, arg_index) + "a __local argument takes no value, only a size (CL_INVALID_ARG_VALUE)");
            return CL_INVALID_ARG_VALUE;
        }
        if (arg_size == 0) {
            note(kernel_arg(kernel, arg_index) + "a __local argument needs a size > 0 (CL_INVALID_ARG_SIZE)");
            return CL_INVALID_ARG_SIZE;
        }
        slot.local = arg_size;
    } else if (p.pointer) {
        if (arg_size != sizeof(cl_mem)) {
            note(kernel_arg(kernel, arg_index) + std::to_string(arg_size) +
                 " bytes passed; a buffer argument takes a cl_mem (" + std::to_string(sizeof(cl_mem)) +
                 " bytes) (CL_INVALID_ARG_SIZE)");
            return CL_INVALID_ARG_SIZE;
        }
        cl_mem m = arg_value ? *static_cast<const cl_mem*>(arg_value) : nullptr;
        if (m && !valid(m, kMemMagic)) {
            note(kernel_arg(kernel, arg_index) + "not a buffer of this context (CL_INVALID_MEM_OBJECT)");
            return CL_INVALID_MEM_OBJECT;
        }
        if (m) ++m->refs;
        slot.is_mem = true;
        slot.mem = m;
    } else {
        if (arg_value == nullptr) {
            note(kernel_arg(kernel, arg_index) + "no value (CL_INVALID_ARG_VALUE)");
            return CL_INVALID_ARG_VALUE;
        }
        if (arg_size != p.size) {
            note(kernel_arg(kernel, arg_index) + std::to_string(arg_size) + " bytes passed, the parameter has " +
                 std::to_string(p.size) + " (CL_INVALID_ARG_SIZE)");
            return CL_INVALID_ARG_SIZE;
        }
        const unsigned char* b = static_cast<const unsigned char*>(arg_value);
        slot.bytes.assign(b, b + arg_size);
    }
    slot.set = true;
    std::lock_guard<std::mutex> lock(kernel->m);
    if (kernel->args[arg_index].mem) release(kernel->args[arg_index].mem);
    kernel->args[arg_index] = std::move(slot);
    return CL_SUCCESS;
}

// ---- buffers -----------------------------------------------------------------------------------

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                               cl_int* errcode_ret) {
    if (!valid(context, kContextMagic)) return with_code<cl_mem>(nullptr, CL_INVALID_CONTEXT, errcode_ret);
    if (size == 0) return with_code<cl_mem>(nullptr, CL_INVALID_BUFFER_SIZE, errcode_ret);
    const bool use = (flags & CL_MEM_USE_HOST_PTR) != 0, copy = (flags & CL_MEM_COPY_HOST_PTR) != 0;
    if (use && (copy || (flags & CL_MEM_ALLOC_HOST_PTR)))
        return with_code<cl_mem>(nullptr, CL_INVALID_VALUE, errcode_ret);
    if ((use || copy) != (host_ptr != nullptr)) return with_code<cl_mem>(nullptr, CL_INVALID_HOST_PTR, errcode_ret);
    cl_mem m = new _cl_mem;
    m->size = size;
    if (use) {
        m->host = static_cast<unsigned char*>(host_ptr);
    } else {
        m->host = static_cast<unsigned char*>(::operator new(size));
        m->owned = true;
        if (copy)
            std::memcpy(m->host, host_ptr, size);
        else
            std::memset(m->host, 0, size);
    }
    return with_code(m, CL_SUCCESS, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) { return retain(memobj, kMemMagic, CL_INVALID_MEM_OBJECT); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
    if (!valid(memobj, kMemMagic)) return CL_INVALID_MEM_OBJECT;
    release(memobj);
    return CL_SUCCESS;
}

// ---- commands ----------------------------------------------------------------------------------

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking_read,
                                                    size_t offset, size_t size, void* ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) {
    return transfer(q, buffer, blocking_read, offset, size, ptr, false, num_events_in_wait_list, event_wait_list,
                    event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking_write,
                                                     size_t offset, size_t size, const void* ptr,
                                                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                     cl_event* event) {
    return transfer(q, buffer, blocking_write, offset, size, const_cast<void*>(ptr), true, num_events_in_wait_list,
                    event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel kernel, cl_uint work_dim,
                                                       const size_t* global_work_offset,
                                                       const size_t* global_work_size, const size_t* local_work_size,
                                                       cl_uint num_events_in_wait_list,
                                                       const cl_event* event_wait_list, cl_event* event) {
    if (!valid(q, kQueueMagic)) return CL_INVALID_COMMAND_QUEUE;
    if (!valid(kernel, kKernelMagic)) return CL_INVALID_KERNEL;
    if (work_dim < 1 || work_dim > 3) return CL_INVALID_WORK_DIMENSION;
    if (global_work_size == nullptr) return CL_INVALID_VALUE;
    hlsinstr_emu::NDRange global, local;
    global.dims = work_dim;
    local.dims = local_work_size ? work_dim : 0;
    for (cl_uint d = 0; d < work_dim; ++d) {
        if (global_work_offset && global_work_offset[d] != 0) {
            note("clEnqueueNDRangeKernel: kernel " + kernel->name +
                 ": a global work offset is not supported by the emulation (CL_INVALID_GLOBAL_OFFSET)");
            return CL_INVALID_GLOBAL_OFFSET;
        }
        if (global_work_size[d] == 0) return CL_INVALID_GLOBAL_WORK_SIZE;
        global.d[d] = global_work_size[d];
        if (local_work_size) {
            if (local_work_size[d] == 0 || global_work_size[d] % local_work_size[d] != 0) {
                note("clEnqueueNDRangeKernel: kernel " + kernel->name + ": global size " +
                     std::to_string(global_work_size[d]) + " is not a multiple of local size " +
                     std::to_string(local_work_size[d]) + " in dimension " + std::to_string(d) +
                     " (CL_INVALID_WORK_GROUP_SIZE)");
                return CL_INVALID_WORK_GROUP_SIZE;
            }
            local.d[d] = local_work_size[d];
        }
    }
    const cl_int w = check_wait_list(num_events_in_wait_list, event_wait_list);
    if (w != CL_SUCCESS) return w;
    std::vector<ArgSlot> args;
    {
        std::lock_guard<std::mutex> lock(kernel->m);
        for (size_t i = 0; i < kernel->args.size(); ++i) {
            if (!kernel->args[i].set) {
                note("clEnqueueNDRangeKernel: kernel " + kernel->name + ": argument " + std::to_string(i) +
                     " is not set (CL_INVALID_KERNEL_ARGS)");
                return CL_INVALID_KERNEL_ARGS;
            }
        }
        args = kernel->args;
    }
    for (ArgSlot& a : args)
        if (a.mem) ++a.mem->refs; // held until the launch ends
    const std::string name = kernel->name;
    const bool host_interface = name == "hlsinstr_host" && args.size() >= 2 && args[1].bytes.size() == 4;
    enqueue(q,
            [args, name, host_interface, global, local] {
                std::vector<std::vector<unsigned char>> locals;
                std::vector<hlsinstr_emu::Arg> values;
                for (const ArgSlot& a : args) {
                    if (a.is_mem || a.local) {
                        void* p = a.mem ? a.mem->host : nullptr;
                        if (a.local) {
                            locals.emplace_back(a.local);
                            p = locals.back().data();
                        }
                        values.push_back(hlsinstr_emu::Arg::from_bytes(&p, sizeof p));
                    } else {
                        values.push_back(hlsinstr_emu::Arg::from_bytes(a.bytes.data(), a.bytes.size()));
                    }
                }
                uint32_t unit = 0;
                if (host_interface) {
                    std::memcpy(&unit, args[1].bytes.data(), sizeof unit);
                    hlsinstr_emu::ibuffer_host_before(unit);
                }
                hlsinstr_emu::Launch l = hlsinstr_emu::launch(name.c_str(), values, global, local);
                hlsinstr_emu::wait(l);
                if (host_interface) hlsinstr_emu::ibuffer_host_after(unit);
                for (const ArgSlot& a : args)
                    if (a.mem) release(a.mem);
            },
            num_events_in_wait_list, event_wait_list, event, false);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel kernel, cl_uint num_events_in_wait_list,
                                              const cl_event* event_wait_list, cl_event* event) {
    const size_t one = 1;
    return clEnqueueNDRangeKernel(q, kernel, 1, nullptr, &one, &one, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue q) {
    return valid(q, kQueueMagic) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE; // commands start when queued
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q) {
    if (!valid(q, kQueueMagic)) return CL_INVALID_COMMAND_QUEUE;
    finish(q);
    return CL_SUCCESS;
}

// ---- events ------------------------------------------------------------------------------------

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
    if (num_events == 0 || event_list == nullptr) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num_events; ++i)
        if (!valid(event_list[i], kEventMagic)) return CL_INVALID_EVENT;
    for (cl_uint i = 0; i < num_events; ++i) wait_for(event_list[i]);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) { return retain(event, kEventMagic, CL_INVALID_EVENT); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) {
    if (!valid(event, kEventMagic)) return CL_INVALID_EVENT;
    release(event);
    return CL_SUCCESS;
}

// ---- everything else: not supported ------------------------------------------------------------

cl_int CL_API_CALL clCreateSubDevices(cl_device_id, const cl_device_partition_property *, cl_uint, cl_device_id *, cl_uint *) { return unsupported("clCreateSubDevices"); }
cl_int CL_API_CALL clGetContextInfo(cl_context, cl_context_info, size_t, void *, size_t *) { return unsupported("clGetContextInfo"); }
cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue, cl_command_queue_info, size_t, void *, size_t *) { return unsupported("clGetCommandQueueInfo"); }
cl_mem CL_API_CALL clCreateSubBuffer(cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int * errcode_ret) { return unsupported_object<cl_mem>("clCreateSubBuffer", errcode_ret); }
cl_mem CL_API_CALL clCreateImage(cl_context, cl_mem_flags, const cl_image_format *, const cl_image_desc *, void *, cl_int * errcode_ret) { return unsupported_object<cl_mem>("clCreateImage", errcode_ret); }
cl_int CL_API_CALL clGetSupportedImageFormats(cl_context, cl_mem_flags, cl_mem_object_type, cl_uint, cl_image_format *, cl_uint *) { return unsupported("clGetSupportedImageFormats"); }
cl_int CL_API_CALL clGetMemObjectInfo(cl_mem, cl_mem_info, size_t, void *, size_t *) { return unsupported("clGetMemObjectInfo"); }
cl_int CL_API_CALL clGetImageInfo(cl_mem, cl_image_info, size_t, void *, size_t *) { return unsupported("clGetImageInfo"); }
cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem, void (*)(cl_mem memobj, void * user_data), void *) { return unsupported("clSetMemObjectDestructorCallback"); }
cl_int CL_API_CALL clRetainSampler(cl_sampler) { return unsupported("clRetainSampler"); }
cl_int CL_API_CALL clReleaseSampler(cl_sampler) { return unsupported("clReleaseSampler"); }
cl_int CL_API_CALL clGetSamplerInfo(cl_sampler, cl_sampler_info, size_t, void *, size_t *) { return unsupported("clGetSamplerInfo"); }
cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context, cl_uint, const cl_device_id *, const char *, cl_int * errcode_ret) { return unsupported_object<cl_program>("clCreateProgramWithBuiltInKernels", errcode_ret); }
cl_int CL_API_CALL clCompileProgram(cl_program, cl_uint, const cl_device_id *, const char *, cl_uint, const cl_program *, const char **, void (*)(cl_program program, void * user_data), void *) { return unsupported("clCompileProgram"); }
cl_program CL_API_CALL clLinkProgram(cl_context, cl_uint, const cl_device_id *, const char *, cl_uint, const cl_program *, void (*)(cl_program program, void * user_data), void *, cl_int * errcode_ret) { return unsupported_object<cl_program>("clLinkProgram", errcode_ret); }
cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id) { return unsupported("clUnloadPlatformCompiler"); }
cl_int CL_API_CALL clGetProgramInfo(cl_program, cl_program_info, size_t, void *, size_t *) { return unsupported("clGetProgramInfo"); }
cl_int CL_API_CALL clGetProgramBuildInfo(cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *) { return unsupported("clGetProgramBuildInfo"); }
cl_int CL_API_CALL clCreateKernelsInProgram(cl_program, cl_uint, cl_kernel *, cl_uint *) { return unsupported("clCreateKernelsInProgram"); }
cl_int CL_API_CALL clGetKernelInfo(cl_kernel, cl_kernel_info, size_t, void *, size_t *) { return unsupported("clGetKernelInfo"); }
cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel, cl_uint, cl_kernel_arg_info, size_t, void *, size_t *) { return unsupported("clGetKernelArgInfo"); }
cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *, size_t *) { return unsupported("clGetKernelWorkGroupInfo"); }
cl_int CL_API_CALL clGetEventInfo(cl_event, cl_event_info, size_t, void *, size_t *) { return unsupported("clGetEventInfo"); }
cl_event CL_API_CALL clCreateUserEvent(cl_context, cl_int * errcode_ret) { return unsupported_object<cl_event>("clCreateUserEvent", errcode_ret); }
cl_int CL_API_CALL clSetUserEventStatus(cl_event, cl_int) { return unsupported("clSetUserEventStatus"); }
cl_int CL_API_CALL clSetEventCallback(cl_event, cl_int, void (*)(cl_event event, cl_int event_command_status, void * user_data), void *) { return unsupported("clSetEventCallback"); }
cl_int CL_API_CALL clGetEventProfilingInfo(cl_event, cl_profiling_info, size_t, void *, size_t *) { return unsupported("clGetEventProfilingInfo"); }
cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, const size_t *, size_t, size_t, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueReadBufferRect"); }
cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, const size_t *, size_t, size_t, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueWriteBufferRect"); }
cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue, cl_mem, const void *, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueFillBuffer"); }
cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueCopyBuffer"); }
cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, const size_t *, size_t, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueCopyBufferRect"); }
cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueReadImage"); }
cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueWriteImage"); }
cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue, cl_mem, const void *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueFillImage"); }
cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueCopyImage"); }
cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, size_t, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueCopyImageToBuffer"); }
cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue, cl_mem, cl_mem, size_t, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueCopyBufferToImage"); }
void * CL_API_CALL clEnqueueMapBuffer(cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint, const cl_event *, cl_event *, cl_int * errcode_ret) { return unsupported_object<void *>("clEnqueueMapBuffer", errcode_ret); }
void * CL_API_CALL clEnqueueMapImage(cl_command_queue, cl_mem, cl_bool, cl_map_flags, const size_t *, const size_t *, size_t *, size_t *, cl_uint, const cl_event *, cl_event *, cl_int * errcode_ret) { return unsupported_object<void *>("clEnqueueMapImage", errcode_ret); }
cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueUnmapMemObject"); }
cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue, cl_uint, const cl_mem *, cl_mem_migration_flags, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueMigrateMemObjects"); }
cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue, void (*)(void *), void *, size_t, cl_uint, const cl_mem *, const void **, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueNativeKernel"); }
cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueMarkerWithWaitList"); }
cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue, cl_uint, const cl_event *, cl_event *) { return unsupported("clEnqueueBarrierWithWaitList"); }
void * CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id, const char *) { unsupported("clGetExtensionFunctionAddressForPlatform"); return nullptr; }
cl_mem CL_API_CALL clCreateImage2D(cl_context, cl_mem_flags, const cl_image_format *, size_t, size_t, size_t, void *, cl_int * errcode_ret) { return unsupported_object<cl_mem>("clCreateImage2D", errcode_ret); }
cl_mem CL_API_CALL clCreateImage3D(cl_context, cl_mem_flags, const cl_image_format *, size_t, size_t, size_t, size_t, size_t, void *, cl_int * errcode_ret) { return unsupported_object<cl_mem>("clCreateImage3D", errcode_ret); }
cl_int CL_API_CALL clEnqueueMarker(cl_command_queue, cl_event *) { return unsupported("clEnqueueMarker"); }
cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue, cl_uint, const cl_event *) { return unsupported("clEnqueueWaitForEvents"); }
cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue) { return unsupported("clEnqueueBarrier"); }
cl_int CL_API_CALL clUnloadCompiler(void) { return unsupported("clUnloadCompiler"); }
void * CL_API_CALL clGetExtensionFunctionAddress(const char *) { unsupported("clGetExtensionFunctionAddress"); return nullptr; }
cl_sampler CL_API_CALL clCreateSampler(cl_context, cl_bool, cl_addressing_mode, cl_filter_mode, cl_int * errcode_ret) { return unsupported_object<cl_sampler>("clCreateSampler", errcode_ret); }

} // extern "C"
