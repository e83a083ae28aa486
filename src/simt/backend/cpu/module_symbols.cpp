// Data symbols of a loaded shared object from its ELF symbol table (see module_symbols.h).
#include "backend/cpu/module_symbols.h"
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <cstring>
#include "support/error.h"
#include "support/files.h"

namespace simt {

namespace {

[[noreturn]] void missing(const std::string& name, const char* why) {
    raise(ErrorKind::Value, "'%s' is not a global variable of the module (%s); get_global() takes the name of a "
          "module-scope __device__ or __constant__ variable", name.c_str(), why);
}

template <class T> const T* at(const std::string& file, size_t offset, size_t count = 1) {
    if (offset > file.size() || count > (file.size() - offset) / sizeof(T)) return nullptr;
    return reinterpret_cast<const T*>(file.data() + offset);
}

}  // namespace

std::pair<void*, size_t> shared_object_variable(void* handle, const std::string& name) {
    struct link_map* map = nullptr;
    if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name)
        missing(name, "the dynamic linker cannot describe the module");
    std::string file;
    if (!read_file(map->l_name, file)) missing(name, "the module's file cannot be read");
    const Elf64_Ehdr* header = at<Elf64_Ehdr>(file, 0);
    if (!header || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64)
        missing(name, "the module is not a 64-bit ELF file");
    const Elf64_Shdr* sections = at<Elf64_Shdr>(file, header->e_shoff, header->e_shnum);
    if (!sections) missing(name, "the module's section table is unreadable");
    const char* why = "no such symbol";
    for (size_t i = 0; i < header->e_shnum; ++i) {
        const Elf64_Shdr& table = sections[i];
        if (table.sh_type != SHT_SYMTAB || table.sh_link >= header->e_shnum) continue;
        const Elf64_Shdr& names = sections[table.sh_link];
        if (names.sh_offset > file.size() || names.sh_size > file.size() - names.sh_offset) continue;
        const Elf64_Sym* symbols = at<Elf64_Sym>(file, table.sh_offset, table.sh_size / sizeof(Elf64_Sym));
        if (!symbols) continue;
        for (size_t k = 0; k < table.sh_size / sizeof(Elf64_Sym); ++k) {
            const Elf64_Sym& s = symbols[k];
            if (s.st_name >= names.sh_size || s.st_shndx == SHN_UNDEF) continue;
            const char* symbol_name = file.data() + names.sh_offset + s.st_name;
            if (name.size() >= names.sh_size - s.st_name || std::memcmp(symbol_name, name.data(), name.size()) != 0 ||
                symbol_name[name.size()] != 0)
                continue;
            switch (ELF64_ST_TYPE(s.st_info)) {
            case STT_OBJECT:
                return {reinterpret_cast<void*>(map->l_addr + s.st_value), size_t(s.st_size)};
            case STT_FUNC:
                why = "it is a function";
                break;
            case STT_TLS:
                why = "it is a __shared__ variable, one per block";
                break;
            default:
                break;
            }
        }
    }
    missing(name, why);
}

}  // namespace simt
