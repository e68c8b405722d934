// SPDX-License-Identifier: GPL-3.0-or-later
// The demo lab's NAS: what researchers leave there (code, data, checkpoints, logs, core dumps,
// a stale archive) and the cases gpudesk's storage page, submit check and doctor must survive
// (dangling and escaping links, a script without its x bit, hostile file names, an unreadable
// directory, a loop).
#include "nastree.h"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

namespace sim {

namespace fs = std::filesystem;

namespace {

constexpr qint64 kGiB = 1024LL * 1024 * 1024;
constexpr qint64 kMiB = 1024LL * 1024;
constexpr qint64 kMinute = 60;
constexpr qint64 kHour = 3600;
constexpr qint64 kDay = 86400;

// FNV-1a: stable across builds and platforms, unlike std::hash, so a state directory seeded by
// one build looks the same to the next.
quint64 hashOf(const std::string &s)
{
    quint64 h = 1469598103934665603ULL;
    for (const unsigned char c : s)
        h = (h ^ c) * 1099511628211ULL;
    return h;
}

// Writes the tree and remembers each entry's times, set at the end: creating an entry changes
// its directory's mtime.
class Seeder
{
public:
    Seeder(std::string root, qint64 now) : m_root(std::move(root)), m_now(now) {}

    bool ok() const { return m_error.empty(); }
    qint64 now() const { return m_now; }
    const std::string &error() const { return m_error; }

    void dir(const std::string &rel, unsigned mode = 0755)
    {
        std::error_code ec;
        fs::create_directories(m_root + "/" + rel, ec);
        check(ec, rel);
        chmodTo(rel, mode);
    }
    // A file with this content, changed `age` seconds ago and read `readAge` seconds ago.
    void text(const std::string &rel, const std::string &content, qint64 age, qint64 readAge = -1,
              unsigned mode = 0644)
    {
        makeParent(rel);
        {
            std::ofstream f(m_root + "/" + rel, std::ios::binary | std::ios::trunc);
            f << content;
            if (!f)
                fail("cannot write " + rel);
        }
        chmodTo(rel, mode);
        stamp(rel, age, readAge);
    }
    // A big file that takes no room: a few real bytes (the format's magic), then a hole.
    void sparse(const std::string &rel, qint64 bytes, qint64 age, qint64 readAge = -1,
                const std::string &header = {}, unsigned mode = 0644)
    {
        text(rel, header, age, readAge, mode);
        std::error_code ec;
        fs::resize_file(m_root + "/" + rel, std::uintmax_t(bytes), ec);
        check(ec, rel);
    }
    void link(const std::string &rel, const std::string &target, qint64 age)
    {
        makeParent(rel);
        std::error_code ec;
        fs::remove(m_root + "/" + rel, ec); // a seeding cut short before
        fs::create_symlink(target, m_root + "/" + rel, ec);
        check(ec, rel);
        stamp(rel, age, age);
    }
    // Another name of a file written before (`ln`): the same inode, so its times are the file's.
    void hardLink(const std::string &rel, const std::string &existing)
    {
        std::error_code ec;
        fs::remove(m_root + "/" + rel, ec); // a seeding cut short before
        fs::create_hard_link(m_root + "/" + existing, m_root + "/" + rel, ec);
        check(ec, rel);
    }
    void chmodTo(const std::string &rel, unsigned mode)
    {
        if (::chmod((m_root + "/" + rel).c_str(), mode) != 0)
            fail("cannot chmod " + rel);
    }

    // Sets every remembered time, then each directory's: its newest entry's mtime, read lately.
    void finish()
    {
        for (const auto &[rel, t] : m_times)
            setTimes(m_root + "/" + rel, t.first, t.second, hashOf(rel));
        for (const char *area : {"user", "share"})
            settle(m_root + "/" + area);
    }

private:
    void makeParent(const std::string &rel)
    {
        const size_t slash = rel.rfind('/');
        if (slash != std::string::npos) {
            std::error_code ec;
            fs::create_directories(m_root + "/" + rel.substr(0, slash), ec);
            check(ec, rel);
        }
    }
    void stamp(const std::string &rel, qint64 age, qint64 readAge)
    {
        const qint64 mtime = m_now - age;
        // Read some time after it was written unless told; relatime keeps atime >= mtime.
        const qint64 atime = readAge >= 0 ? m_now - readAge : mtime + age / 3;
        m_times[rel] = {atime, mtime};
    }
    static void setTimes(const std::string &path, qint64 atime, qint64 mtime, quint64 h)
    {
        // Real nanoseconds, as a NAS records them, so that %T@'s fraction is exercised.
        const long mtimeNs = long(h % 1000000000);
        long atimeNs = long((h >> 7) % 1000000000);
        if (atime == mtime)
            atimeNs = mtimeNs; // read when written, never before
        const timespec ts[2] = {{time_t(atime), atimeNs}, {time_t(mtime), mtimeNs}};
        ::utimensat(AT_FDCWD, path.c_str(), ts, AT_SYMLINK_NOFOLLOW);
    }
    qint64 settle(const std::string &host)
    {
        qint64 newest = 0;
        if (DIR *d = ::opendir(host.c_str())) {
            while (const dirent *e = ::readdir(d)) {
                const std::string name = e->d_name;
                if (name == "." || name == "..")
                    continue;
                struct stat st;
                const std::string child = host + "/" + name;
                if (::lstat(child.c_str(), &st) != 0)
                    continue;
                newest = std::max<qint64>(newest,
                                          S_ISDIR(st.st_mode) ? settle(child) : st.st_mtim.tv_sec);
            }
            ::closedir(d);
        }
        const quint64 h = hashOf(host.substr(m_root.size()));
        if (newest == 0)
            newest = m_now - qint64(30 + h % 60) * kDay; // empty: made long ago
        setTimes(host, std::max(newest, m_now - qint64(h % 20) * kHour), newest, h);
        return newest;
    }
    void check(const std::error_code &ec, const std::string &rel)
    {
        if (ec)
            fail("cannot create " + rel + ": " + ec.message());
    }
    void fail(const std::string &message)
    {
        if (m_error.empty())
            m_error = message;
    }

    std::string m_root;
    qint64 m_now;
    std::string m_error;
    std::map<std::string, std::pair<qint64, qint64>> m_times; // rel → atime, mtime
};

std::string dateOf(qint64 secs)
{
    const time_t t = time_t(secs);
    tm parts{};
    gmtime_r(&t, &parts);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &parts);
    return buf;
}

std::string trainPy(const std::string &project)
{
    return "# " + project +
           ": training entry point.\n"
           "import argparse\n\nimport torch\nimport torch.distributed as dist\nimport yaml\n\n\n"
           "def main():\n"
           "    parser = argparse.ArgumentParser()\n"
           "    parser.add_argument(\"--config\", default=\"config.yaml\")\n"
           "    parser.add_argument(\"--output\", required=False)\n"
           "    args = parser.parse_args()\n"
           "    cfg = yaml.safe_load(open(args.config))\n"
           "    dist.init_process_group(\"nccl\")\n"
           "    rank = dist.get_rank()\n"
           "    torch.cuda.set_device(rank % torch.cuda.device_count())\n"
           "    print(f\"rank {rank}: training {cfg['model']} for {cfg['steps']} steps\")\n\n\n"
           "if __name__ == \"__main__\":\n    main()\n";
}

std::string configYaml(const std::string &project, quint64 h)
{
    return "model: " + project + "\nsteps: " + std::to_string(10000 + h % 5 * 5000) +
           "\nbatch_size: " + std::to_string(8 << (h % 3)) +
           "\nlr: 2.0e-4\nwarmup_steps: 500\nbf16: true\ngradient_checkpointing: true\n"
           "save_every: 2000\ndata: /mnt/share/datasets\n";
}

std::string readme(const std::string &project, const std::string &user)
{
    return "# " + project + "\n\nMaintained by " + user + ".\n\n    cd /mnt/user/" + user +
           "/code/" + project +
           "\n    torchrun --nproc_per_node=8 train.py --config config.yaml\n\n"
           "Checkpoints go to /mnt/user/" +
           user + "/checkpoints/, logs to /mnt/user/" + user + "/outputs/.\n";
}

// A few KB of a real-looking training log, its last line at `endSecs`.
std::string trainLog(const std::string &job, qint64 endSecs, quint64 h)
{
    std::string out =
        "[" + dateOf(endSecs - 60 * 100) + "] starting " + job + " (world size 8, bf16)\n";
    double loss = 3.2 + double(h % 100) / 100.0;
    for (int i = 1; i <= 60; ++i) {
        loss *= 0.975 + double((h >> (i % 40)) % 10) / 1000.0;
        char line[160];
        std::snprintf(line, sizeof line,
                      "[%s] step %5d | loss %.4f | lr %.2e | grad_norm %.2f | tokens/s %llu\n",
                      dateOf(endSecs - 60 * (100 - i)).c_str(), i * 100, loss,
                      2.0e-4 * std::min(1.0, i / 5.0), 0.8 + double((h >> i % 50) % 60) / 100.0,
                      static_cast<unsigned long long>(41000 + (h >> (i % 30)) % 9000));
        out += line;
    }
    return out + "[" + dateOf(endSecs) + "] step  6000 | saved checkpoint\n";
}

const std::map<std::string, std::vector<std::string>> &projectsOfGroup()
{
    static const std::map<std::string, std::vector<std::string>> p{
        {"nlp", {"llama", "bert-zh", "qwen-sft"}},
        {"cv", {"resnet", "detr", "sam-finetune"}},
        {"speech", {"whisper-zh", "conformer"}}};
    return p;
}

// Checkpoints per user: jobs, steps per job, GiB per file. Alice keeps by far the most,
// the case the storage page's ranking and a cleanup are about.
struct CheckpointPlan
{
    int jobs;
    int steps;
    double gib;
};

CheckpointPlan checkpointPlan(const std::string &user, quint64 h)
{
    static const std::map<std::string, CheckpointPlan> plans{
        {"alice", {4, 4, 17.5}}, {"zhangwei", {3, 3, 13}}, {"bob", {2, 3, 9}},
        {"erin", {2, 3, 7}},     {"carol", {2, 2, 11}},    {"wangfang", {1, 3, 6}},
        {"chenjie", {1, 2, 5}},  {"lina", {1, 2, 3.5}},    {"liuyang", {1, 2, 2.5}},
        {"sunmin", {1, 2, 2}},   {"dave", {1, 2, 2}},      {"frank", {1, 2, 2}}};
    const auto it = plans.find(user);
    if (it != plans.end())
        return it->second;
    return {1 + int(h % 3), 2 + int(h / 3 % 3), 2.0 + double(h / 9 % 12)};
}

void seedUser(Seeder &s, const std::string &user, const std::string &group, int indexInGroup)
{
    const quint64 h = hashOf(user);
    const std::string home = "user/" + user;
    s.dir(home);
    const auto groupIt = projectsOfGroup().find(group);
    const std::vector<std::string> pool = groupIt != projectsOfGroup().end()
                                              ? groupIt->second
                                              : std::vector<std::string>{"mnist", "playground"};
    std::vector<std::string> projects{pool[size_t(indexInGroup) % pool.size()]};
    if (h % 2 == 0)
        projects.push_back(pool[size_t(indexInGroup + 1) % pool.size()]);
    if (user == "alice" && projects[0] != "llama")
        projects.insert(projects.begin(), "llama");
    for (size_t p = 0; p < projects.size(); ++p) {
        const std::string dir = home + "/code/" + projects[p];
        const qint64 age = qint64(20 + (h >> (p * 8)) % 600) * kMinute * qint64(p * 30 + 1);
        s.text(dir + "/train.py", trainPy(projects[p]), age, age / 4);
        s.text(dir + "/config.yaml", configYaml(projects[p], h >> p), age / 2, age / 8);
        s.text(dir + "/README.md", readme(projects[p], user), age * 3, age);
    }

    // Data beside the code for about two users in three.
    if (indexInGroup % 3 != 2) {
        const std::string data = home + (indexInGroup % 2 == 0 ? "/datasets" : "/data");
        const qint64 age = qint64(3 + h % 40) * kDay;
        std::string lines;
        for (int i = 0; i < 20; ++i)
            lines += "{\"id\": " + std::to_string(i) + ", \"text\": \"sample " +
                     std::to_string((h >> (i % 32)) % 100000) + "\"}\n";
        s.text(data + "/train.jsonl", lines, age, age / 2);
        s.text(data + "/val.jsonl", lines.substr(0, lines.size() / 4), age, age / 2);
        s.sparse(data + "/tokens-" + projects[0] + ".bin", qint64(1 + h % 6) * kGiB, age, age / 3,
                 "TOKN");
    }

    // Checkpoints, the newest step of each job last written when the job's log ended.
    const CheckpointPlan plan = checkpointPlan(user, h);
    const std::map<std::string, std::vector<std::string>> jobsOf{
        {"nlp", {"llama-7b-sft", "qwen-14b-lora", "bert-zh-pretrain", "llama-13b-pt"}},
        {"cv", {"resnet50-imagenet", "detr-coco", "sam-ft-medical", "vit-b16"}},
        {"speech", {"whisper-zh-ft", "conformer-aishell", "tts-vits"}}};
    const auto jobsIt = jobsOf.find(group);
    const std::vector<std::string> jobs =
        jobsIt != jobsOf.end() ? jobsIt->second : std::vector<std::string>{"mnist-cnn", "toy-gpt"};
    for (int j = 0; j < plan.jobs; ++j) {
        const std::string job =
            jobs[size_t(j) % jobs.size()] + (j >= int(jobs.size()) ? "-v2" : "");
        // The first job is running or just ended; older jobs weeks to months ago.
        const qint64 end =
            j == 0 ? qint64(10 + h % 50) * kMinute : qint64(j * j * 12 + int((h >> j) % 9)) * kDay;
        for (int k = 0; k < plan.steps; ++k) {
            const qint64 size =
                qint64(plan.gib * double(kGiB) * (1.0 - 0.08 * j)) + qint64((h >> k) % 977) * kMiB;
            // A torch .pt is a zip archive: its magic first.
            s.sparse(home + "/checkpoints/" + job + "/step-" + std::to_string((k + 1) * 2000) +
                         ".pt",
                     size, end + qint64(plan.steps - 1 - k) * 5 * kHour,
                     end + qint64(plan.steps - 1 - k) * kHour, std::string("PK\x03\x04", 4));
        }
        // The newest step also named latest.pt, as training scripts link it (`ln -f`): a file
        // of two names, which du and the walk count once.
        if (j == 0 && user == "alice")
            s.hardLink(home + "/checkpoints/" + job + "/latest.pt",
                       home + "/checkpoints/" + job + "/step-" + std::to_string(plan.steps * 2000) +
                           ".pt");
        s.text(home + "/outputs/" + job + "/train.log", trainLog(job, s.now() - end, h), end,
               end / 2);
    }
}

// What the submit check and the doctor look at: launch scripts good and bad.
void seedLaunchScripts(Seeder &s, const std::map<std::string, std::string> &groupOf)
{
    if (groupOf.count("alice"))
        s.text("user/alice/code/llama/launch.sh",
               "#!/bin/bash\n"
               "# LLaMA-7B SFT on one 8-GPU node: torchrun starts one process per GPU.\n"
               "set -euo pipefail\n"
               "cd \"$(dirname \"$0\")\"\n"
               "export NCCL_DEBUG=WARN\n"
               "export OMP_NUM_THREADS=8\n"
               "torchrun --nnodes=1 --nproc_per_node=8 --master_port=29500 \\\n"
               "    train.py --config config.yaml \\\n"
               "    --output /mnt/user/alice/checkpoints/llama-7b-sft\n",
               2 * kHour, 40 * kMinute, 0755);
    if (groupOf.count("bob"))
        s.link("user/bob/code/run.sh", "/mnt/user/bob/code/missing.sh", 9 * kDay);
    if (groupOf.count("carol"))
        s.link("user/carol/code/start.sh", "/opt/scripts/start.sh", 21 * kDay);
    if (groupOf.count("zhangwei")) {
        // Linked on the login node by the node's own path; seg-train mounts code/seg at
        // /workspace, where that path leads nowhere.
        s.text("user/zhangwei/code/seg/tools/dist_train.sh",
               "#!/bin/bash\n"
               "# Segmentation fine-tuning on one node: one process per GPU.\n"
               "set -euo pipefail\n"
               "cd \"$(dirname \"$(readlink -f \"$0\")\")/..\"\n"
               "torchrun --nproc_per_node=\"${GPUS:-1}\" train.py --config configs/seg.yaml\n",
               2 * kDay, 5 * kHour, 0755);
        s.link("user/zhangwei/code/seg/start.sh", "/mnt/user/zhangwei/code/seg/tools/dist_train.sh",
               2 * kDay);
    }
    if (groupOf.count("dave"))
        s.text("user/dave/code/train.sh",
               "#!/bin/bash\n"
               "# Not executable (0644): `sh train.sh` works, ./train.sh does not.\n"
               "cd \"$(dirname \"$0\")/detr\"\n"
               "python -m torch.distributed.run --nproc_per_node=4 train.py --config config.yaml\n",
               3 * kDay, kDay, 0644);
}

// Core dumps of crashed trainers (where the process ran), and an archive nobody has read in
// months: what a cleanup proposes first.
void seedLeftovers(Seeder &s, const std::map<std::string, std::string> &groupOf)
{
    const std::string elf("\x7f"
                          "ELF\x02\x01\x01",
                          7);
    if (groupOf.count("zhangwei"))
        s.sparse("user/zhangwei/code/core.48213", qint64(3.2 * double(kGiB)), 6 * kDay, 6 * kDay,
                 elf, 0600);
    if (groupOf.count("erin")) {
        s.sparse("user/erin/core.7731", qint64(1.4 * double(kGiB)), 33 * kDay, 33 * kDay, elf,
                 0600);
        s.sparse("user/erin/core.7790", qint64(3.9 * double(kGiB)), 32 * kDay, 32 * kDay, elf,
                 0600);
    }
    if (groupOf.count("wangfang"))
        s.sparse("user/wangfang/old-dataset.tar", 10 * kGiB, 200 * kDay, 200 * kDay,
                 std::string("old-dataset/\0", 13));
    // A researcher who left in the spring: her namespace went, her folder stayed. Its
    // checkpoints hold real blocks, so that removing them frees what df shows.
    if (!groupOf.count("yangming")) {
        const std::string home = "user/yangming";
        s.text(home + "/code/asr-conformer/train.py", trainPy("asr-conformer"), 150 * kDay,
               140 * kDay);
        s.text(home + "/code/asr-conformer/README.md", readme("asr-conformer", "yangming"),
               152 * kDay, 141 * kDay);
        for (const char *step : {"step-80000", "step-90000"})
            s.text(home + "/checkpoints/conformer-l/" + step + ".pt",
                   std::string(size_t(12) << 20, char(0x5a)), 141 * kDay, 140 * kDay);
        s.text(home + "/outputs/train.log", "step 90000 loss 1.92 wer 7.4\n", 140 * kDay,
               140 * kDay);
    }
}

// Names and shapes that break careless tools: the storage walk and any command built from a
// file name must survive them.
void seedHostile(Seeder &s, const std::string &home)
{
    s.text(home + "/notes\nold.txt", "a name with a newline in it\n", 50 * kDay);
    s.text(home + "/$(reboot).txt", "a name a shell would run\n", 49 * kDay);
    s.text(home + "/-rf", "a name rm would take for options\n", 48 * kDay);
    s.link(home + "/loop", ".", 47 * kDay);
    s.link(home + "/etc", "/etc", 46 * kDay);
    s.sparse(home + "/sparse.img", 10 * kGiB, 45 * kDay);
    // Empty: a non-root user could not delete a state directory with files in it.
    s.dir(home + "/private", 0755);
    s.chmodTo(home + "/private", 0000);
}

struct Shared
{
    std::string rel; // below share/GROUP
    double gib;      // 0: a small real file
    qint64 ageDays;
};

// The groups' datasets and models: a few big shards each, and their small companions.
void seedGroup(Seeder &s, const std::string &group)
{
    const quint64 h = hashOf(group);
    std::vector<Shared> files;
    if (group == "nlp") {
        for (int i = 0; i < 8; ++i)
            files.push_back({"datasets/wudao-zh/part-0000" + std::to_string(i) + ".jsonl.zst",
                             5.5 + i % 3, 120 + i});
        files.push_back({"datasets/alpaca-zh/train.json", 0, 60});
        files.push_back({"models/llama-2-7b-hf/config.json", 0, 90});
        files.push_back({"models/llama-2-7b-hf/model-00001-of-00002.safetensors", 9.3, 90});
        files.push_back({"models/llama-2-7b-hf/model-00002-of-00002.safetensors", 3.3, 90});
        files.push_back({"models/qwen-14b/model.safetensors", 19.5, 14});
    } else if (group == "cv") {
        for (int i = 0; i < 6; ++i)
            files.push_back(
                {"datasets/imagenet-1k/train-0000" + std::to_string(i) + ".tar", 16.0, 300});
        files.push_back({"datasets/imagenet-1k/val.tar", 6.4, 300});
        files.push_back({"datasets/coco-2017/train2017.zip", 18.0, 210});
        files.push_back({"datasets/coco-2017/annotations/instances_train2017.json", 0.42, 210});
        files.push_back({"models/sam-vit-h/sam_vit_h_4b8939.pth", 2.4, 45});
        files.push_back({"models/resnet50/resnet50-0676ba61.pth", 0.09, 160});
    } else if (group == "speech") {
        files.push_back({"datasets/aishell-1/data_aishell.tgz", 14.5, 400});
        for (int i = 0; i < 4; ++i)
            files.push_back(
                {"datasets/wenetspeech/shard-000" + std::to_string(i) + ".tar", 12.0, 75 + i});
        files.push_back({"models/whisper-large-v3/config.json", 0, 30});
        files.push_back({"models/whisper-large-v3/model.safetensors", 2.9, 30});
    } else {
        for (int i = 0; i < 3; ++i)
            files.push_back({"datasets/" + group + "-corpus/shard-000" + std::to_string(i) + ".bin",
                             2.0 + double(h >> i & 7), 20 + i});
        files.push_back({"models/" + group + "-base/model.safetensors", 1.5, 10});
    }
    const std::string base = "share/" + group + "/";
    for (const Shared &f : files) {
        const qint64 age = f.ageDays * kDay + qint64(hashOf(f.rel) % kDay);
        const qint64 readAge = qint64(hashOf(f.rel) % 20) * kDay;
        if (f.gib > 0)
            s.sparse(base + f.rel, qint64(f.gib * double(kGiB)), age, std::min(age, readAge));
        else
            s.text(base + f.rel, "{\"source\": \"" + f.rel + "\"}\n", age, std::min(age, readAge));
    }
    for (const char *area : {"datasets", "models"})
        s.text(base + area + "/README.md",
               "# " + group + " " + area +
                   "\n\nShared, read-only by convention: copy before you change anything.\n"
                   "Ask in #" +
                   group + " before adding more than 100 GiB.\n",
               180 * kDay, 2 * kDay);
}

} // namespace

bool NasTree::seedDemo(const std::vector<std::pair<std::string, std::string>> &userGroups,
                       qint64 nowSecs, std::string *error) const
{
    if (!ensureRoot(error))
        return false;
    const std::string marker = m_root + "/.seeded";
    if (fs::exists(marker))
        return true;
    Seeder s(m_root, nowSecs);
    std::map<std::string, std::string> groupOf(userGroups.begin(), userGroups.end());
    std::map<std::string, int> seenInGroup;
    for (const auto &[user, group] : userGroups)
        seedUser(s, user, group, seenInGroup[group]++);
    seedLaunchScripts(s, groupOf);
    seedLeftovers(s, groupOf);
    if (groupOf.count("frank"))
        seedHostile(s, "user/frank");
    // Groups: the users' VCs but the cluster's catch-all one.
    std::set<std::string> groups;
    for (const auto &[user, group] : userGroups)
        if (group != "default")
            groups.insert(group);
    for (const std::string &g : groups)
        seedGroup(s, g);
    s.finish();
    if (!s.ok()) {
        if (error)
            *error = s.error();
        return false;
    }
    std::ofstream(marker) << "seeded\n";
    return true;
}

} // namespace sim
