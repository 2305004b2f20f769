// Kernels grouped in families: a family is a list of kernel types, the kernel
// variant is every family's types in order, and FamilyOf names a kernel's family
// (the CUDA backend compiles each family in a file of its own).
#pragma once
#include <tuple>
#include <type_traits>
#include <variant>

namespace mcsim {

template <class... Kernels>
struct KernelList {
  template <class K>
  static constexpr bool contains = (std::is_same_v<K, Kernels> || ...);
};

namespace detail {
template <class... Lists>
struct Joined;
template <class... Ks>
struct Joined<KernelList<Ks...>> {
  using type = std::variant<Ks...>;
};
template <class... A, class... B, class... Rest>
struct Joined<KernelList<A...>, KernelList<B...>, Rest...> : Joined<KernelList<A..., B...>, Rest...> {};

template <class K, class... Families>
struct Find;
template <class K, class F, class... Rest>
struct Find<K, F, Rest...> {
  using type = std::conditional_t<F::template contains<K>, F, typename Find<K, Rest...>::type>;
};
template <class K>
struct Find<K> {
  using type = void;
};

template <class Families>
struct Variant;
template <class... Families>
struct Variant<std::tuple<Families...>> {
  using type = typename Joined<Families...>::type;
};
template <class Families, class K>
struct FamilyIn;
template <class... Families, class K>
struct FamilyIn<std::tuple<Families...>, K> {
  using type = typename Find<K, Families...>::type;
  static_assert(!std::is_void_v<type>, "a kernel outside every family");
};
}  // namespace detail

// The variant of every kernel of a std::tuple of families, in order.
template <class Families>
using KernelVariant = typename detail::Variant<Families>::type;
// The family in the tuple Families that holds kernel K.
template <class Families, class K>
using FamilyIn = typename detail::FamilyIn<Families, K>::type;

}  // namespace mcsim
