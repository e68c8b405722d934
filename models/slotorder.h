// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <utility>
#include <vector>

namespace gpudesk {

// An ordered sequence of distinct small integers (model slots) that answers both "what is at
// position i" and "where is slot s" in about O(√n), and inserts or erases anywhere in about
// O(√n): blocks of a few hundred slots, each slot knowing its block.
//
// Why not a plain vector with a position per slot: each insert or erase then renumbers every
// slot after it. At 100,000 rows and a few thousand changes a second that renumbering was a
// sixth of the UI thread.
class SlotOrder
{
public:
    // Replaces the whole sequence; slots must be < slotCount.
    void assign(std::vector<int> order, int slotCount);
    // More slots may exist from now on (new ones are not in the sequence).
    void growSlots(int slotCount);

    int size() const { return m_size; }
    bool contains(int slot) const;
    int at(int pos) const;
    // -1 when the slot is not in the sequence.
    int position(int slot) const;
    void insert(int pos, int slot);
    void erase(int pos);
    std::vector<int> toVector() const;

private:
    static constexpr int BlockSize = 512; // a block splits beyond twice this

    struct Block
    {
        std::vector<int> items;
        int start = 0; // position of its first slot (valid when m_startsValid)
    };
    // Block in m_blocks holding position pos, and pos's offset in it.
    std::pair<int, int> locate(int pos) const;
    void refreshStarts() const;
    void reindex(int fromBlock);

    mutable std::vector<Block> m_blocks;
    std::vector<int> m_blockOf; // per slot: index in m_blocks, -1 when absent
    mutable bool m_startsValid = true;
    int m_size = 0;
};

} // namespace gpudesk
