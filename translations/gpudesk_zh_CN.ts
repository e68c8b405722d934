<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AuditLog</name>
    <message>
        <source>Cannot write the audit log %1: %2</source>
        <translation>无法写入审计日志 %1：%2</translation>
    </message>
    <message>
        <source>Cannot make the audit log %1 private: %2</source>
        <translation>无法将审计日志 %1 设为仅本人可读：%2</translation>
    </message>
</context>
<context>
    <name>BoundedFile</name>
    <message>
        <source>larger than %1 KiB, more than such a file holds</source>
        <translation>大于 %1 KiB，超过此类文件应有的大小</translation>
    </message>
</context>
<context>
    <name>DevEnvPlanner</name>
    <message>
        <source>dev environment %1</source>
        <translation>开发环境 %1</translation>
    </message>
    <message>
        <source>Create dev environment %1</source>
        <translation>创建开发环境 %1</translation>
    </message>
    <message>
        <source>%1 already has an environment named %2.</source>
        <translation>%1 中已有名为 %2 的环境。</translation>
    </message>
    <message>
        <source>Create the home volume %1 (%2 at %3): it stays when the environment is stopped</source>
        <translation>创建主目录卷 %1（%2，挂载于 %3）：环境停止后仍会保留</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation>无 GPU</translation>
    </message>
    <message>
        <source>%1 CPU</source>
        <translation>%1 CPU</translation>
    </message>
    <message>
        <source>%1 memory</source>
        <translation>%1 内存</translation>
    </message>
    <message>
        <source>%1 /dev/shm</source>
        <translation>%1 /dev/shm</translation>
    </message>
    <message>
        <source>Start %1 from %2 with %3%4</source>
        <translation>用镜像 %2 启动 %1，配置 %3%4</translation>
    </message>
    <message>
        <source>, in VC %1</source>
        <translation>，位于 VC %1</translation>
    </message>
    <message>
        <source>No shared memory size: /dev/shm stays at the runtime&apos;s 64 MiB, and PyTorch DataLoader workers crash with a bus error.</source>
        <translation>未设置共享内存大小：/dev/shm 将保持运行时默认的 64 MiB，PyTorch DataLoader 的工作进程会因 bus error 崩溃。</translation>
    </message>
    <message>
        <source>Stop dev environment %1</source>
        <translation>停止开发环境 %1</translation>
    </message>
    <message>
        <source>%1 is not running.</source>
        <translation>%1 未在运行。</translation>
    </message>
    <message>
        <source>stopped by its owner</source>
        <translation>由其所有者停止</translation>
    </message>
    <message>
        <source>Its home volume %1 (%2) is kept: Start makes the environment again with its files.</source>
        <translation>其主目录卷 %1（%2）会保留：“启动”会带着其中的文件重新创建环境。</translation>
    </message>
    <message>
        <source>%1 has no home volume gpudesk knows of: what is not on a volume is lost, and gpudesk cannot start it again.</source>
        <translation>%1 没有 gpudesk 所知的主目录卷：不在卷上的内容会丢失，gpudesk 也无法再次启动它。</translation>
    </message>
    <message>
        <source>Start dev environment %1</source>
        <translation>启动开发环境 %1</translation>
    </message>
    <message>
        <source>%1 is running already.</source>
        <translation>%1 已在运行。</translation>
    </message>
    <message>
        <source>%1 keeps no manifest gpudesk made: it cannot be started from here.</source>
        <translation>%1 没有保存 gpudesk 生成的清单：无法从这里启动。</translation>
    </message>
    <message>
        <source>Start %1 again from %2, with its volume %3</source>
        <translation>用镜像 %2 重新启动 %1，挂载其卷 %3</translation>
    </message>
    <message>
        <source>Delete dev environment %1</source>
        <translation>删除开发环境 %1</translation>
    </message>
    <message>
        <source>deleted by its owner</source>
        <translation>由其所有者删除</translation>
    </message>
    <message>
        <source>Delete the home volume %1 (%2): its files are lost</source>
        <translation>删除主目录卷 %1（%2）：其中的文件将丢失</translation>
    </message>
    <message>
        <source>Everything in %1 (%2) is lost.</source>
        <translation>%1（%2）中的所有内容都将丢失。</translation>
    </message>
    <message>
        <source>Nothing is left of %1.</source>
        <translation>%1 已不复存在。</translation>
    </message>
</context>
<context>
    <name>DevEnvRules</name>
    <message>
        <source>Give the environment a name.</source>
        <translation>请为环境命名。</translation>
    </message>
    <message>
        <source>%1 is not a valid name: lower-case letters, digits and &apos;-&apos;, at most 52, starting and ending with a letter or digit.</source>
        <translation>%1 不是有效的名称：只能使用小写字母、数字和“-”，最多 52 个字符，且以字母或数字开头和结尾。</translation>
    </message>
    <message>
        <source>Choose the namespace it runs in.</source>
        <translation>请选择它运行的命名空间。</translation>
    </message>
    <message>
        <source>Name the image to run.</source>
        <translation>请填写要运行的镜像。</translation>
    </message>
    <message>
        <source>An image reference has no spaces.</source>
        <translation>镜像引用中不能有空格。</translation>
    </message>
    <message>
        <source>GPUs: from 0 to 16.</source>
        <translation>GPU：0 到 16 块。</translation>
    </message>
    <message>
        <source>%1: give an amount.</source>
        <translation>%1：请填写数量。</translation>
    </message>
    <message>
        <source>%1: %2 is not an amount Kubernetes reads (such as 8Gi, 500m, 4).</source>
        <translation>%1：%2 不是 Kubernetes 能识别的数量（例如 8Gi、500m、4）。</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Shared memory</source>
        <translation>共享内存</translation>
    </message>
    <message>
        <source>Home volume</source>
        <translation>主目录卷</translation>
    </message>
    <message>
        <source>Shared memory (%1) counts against the memory limit (%2): it cannot be larger.</source>
        <translation>共享内存（%1）计入内存上限（%2），不能比它更大。</translation>
    </message>
    <message>
        <source>Mount %1: write it as CLAIM:/path.</source>
        <translation>挂载 %1：请写成 CLAIM:/路径。</translation>
    </message>
    <message>
        <source>There is no VC %1.</source>
        <translation>不存在 VC %1。</translation>
    </message>
</context>
<context>
    <name>JobRequestDecoder</name>
    <message>
        <source>nested deeper than %1 levels</source>
        <translation>嵌套超过 %1 层</translation>
    </message>
    <message>
        <source>not JSON</source>
        <translation>不是 JSON</translation>
    </message>
    <message>
        <source>not a JSON or YAML object</source>
        <translation>不是 JSON 或 YAML 对象</translation>
    </message>
    <message>
        <source>the object has no kind</source>
        <translation>对象没有 kind 字段</translation>
    </message>
    <message>
        <source>%1 (%2) is not a job gpudesk submits: a Pod, a Volcano Job, a PyTorchJob or an MPIJob</source>
        <translation>%1（%2）不是 gpudesk 可提交的作业：只支持 Pod、Volcano Job、PyTorchJob 或 MPIJob</translation>
    </message>
    <message>
        <source>the %1 has no pods to run (no tasks or replica specs)</source>
        <translation>该 %1 没有要运行的 Pod（没有 tasks 或副本定义）</translation>
    </message>
    <message>
        <source>%1: %2 replicas of %3 GPUs is not a job a cluster runs (0 to %4 replicas).</source>
        <translation>%1：%2 个副本、每个 %3 张 GPU，不是集群能运行的作业（副本数应为 0 到 %4）。</translation>
    </message>
</context>
<context>
    <name>JobSpecReader</name>
    <message>
        <source>It is not a JSON object.</source>
        <translation>这不是一个 JSON 对象。</translation>
    </message>
    <message>
        <source>%1 %2 is not a kind the form makes (PyTorchJob, MPIJob, Volcano Job, Pod).</source>
        <translation>%1 %2 不是表单能生成的类型（PyTorchJob、MPIJob、Volcano Job、Pod）。</translation>
    </message>
    <message>
        <source>(no kind)</source>
        <translation>（无 kind）</translation>
    </message>
    <message>
        <source>It is nested deeper than %1 levels: not a job.</source>
        <translation>嵌套超过 %1 层：这不是一个作业。</translation>
    </message>
</context>
<context>
    <name>JobSpecRules</name>
    <message>
        <source>%1: give an amount.</source>
        <translation>%1：请填写数量。</translation>
    </message>
    <message>
        <source>%1: %2 is not an amount Kubernetes reads (such as 8Gi, 500m, 4).</source>
        <translation>%1：%2 不是 Kubernetes 能识别的数量（例如 8Gi、500m、4）。</translation>
    </message>
    <message>
        <source>Give the job a name.</source>
        <translation>请为作业命名。</translation>
    </message>
    <message>
        <source>%1 is not a valid name: lower-case letters, digits and &apos;-&apos;, at most 46, starting and ending with a letter or digit.</source>
        <translation>%1 不是有效的名称：只能用小写字母、数字和“-”，最多 46 个字符，且以字母或数字开头和结尾。</translation>
    </message>
    <message>
        <source>Name the image to run.</source>
        <translation>请填写要运行的镜像。</translation>
    </message>
    <message>
        <source>An image reference has no spaces.</source>
        <translation>镜像引用中不能有空格。</translation>
    </message>
    <message>
        <source>Give the command that starts training.</source>
        <translation>请填写启动训练的命令。</translation>
    </message>
    <message>
        <source>At least one node.</source>
        <translation>至少需要一个节点。</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Shared memory</source>
        <translation>共享内存</translation>
    </message>
    <message>
        <source>Data %1: write a path the nodes mount (/mnt/user/NAME) or CLAIM:/path.</source>
        <translation>数据 %1：请写节点挂载的路径（/mnt/user/NAME）或 CLAIM:/path。</translation>
    </message>
    <message>
        <source>Variable &quot;%1&quot;: a name without spaces, then =value.</source>
        <translation>变量“%1”：名称中不能有空格，后接 =值。</translation>
    </message>
</context>
<context>
    <name>JobTemplates</name>
    <message>
        <source>A template needs a name.</source>
        <translation>模板需要一个名称。</translation>
    </message>
    <message>
        <source>A template&apos;s name does not start or end with a space.</source>
        <translation>模板名称不能以空格开头或结尾。</translation>
    </message>
    <message>
        <source>A template&apos;s name does not start with a dot.</source>
        <translation>模板名称不能以点号开头。</translation>
    </message>
    <message>
        <source>A template&apos;s name is at most 100 characters.</source>
        <translation>模板名称最多 100 个字符。</translation>
    </message>
    <message>
        <source>A template&apos;s name has no slash, backslash or control character.</source>
        <translation>模板名称不能包含斜杠、反斜杠或控制字符。</translation>
    </message>
    <message>
        <source>Cannot read the template %1: %2</source>
        <translation>无法读取模板 %1：%2</translation>
    </message>
    <message>
        <source>The template %1 is over 1 MiB: not a job&apos;s YAML.</source>
        <translation>模板 %1 超过 1 MiB：不是作业的 YAML。</translation>
    </message>
    <message>
        <source>Cannot make the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot write the template %1: %2</source>
        <translation>无法写入模板 %1：%2</translation>
    </message>
    <message>
        <source>Cannot remove the template %1: %2</source>
        <translation>无法删除模板 %1：%2</translation>
    </message>
</context>
<context>
    <name>NodeProbe</name>
    <message>
        <source>The probe&apos;s answer from %1 was cut off.</source>
        <translation>%1 的探测结果被截断了。</translation>
    </message>
    <message>
        <source>asked again without mig.mode.current (the driver predates MIG)</source>
        <translation>已改为不带 mig.mode.current 重新查询（驱动版本早于 MIG）</translation>
    </message>
</context>
<context>
    <name>OperationPlanner</name>
    <message>
        <source>Force-delete pod %1/%2 (grace period 0)</source>
        <translation>强制删除 Pod %1/%2（宽限期 0）</translation>
    </message>
    <message>
        <source>Delete pod %1/%2</source>
        <translation>删除 Pod %1/%2</translation>
    </message>
    <message>
        <source>%1: gone from the cluster already</source>
        <translation>%1：已不在集群中</translation>
    </message>
    <message>
        <source>%1 %2/%3: its controller would start new pods; scale it down instead</source>
        <translation>%1 %2/%3：其控制器会启动新的 Pod；请改为缩容该控制器</translation>
    </message>
    <message numerus="yes">
        <source>Abort Volcano job %1/%2 (a Command AbortJob: its %n pod(s) end, the job stays as Aborted)</source>
        <translation>
            <numerusform>中止 Volcano 作业 %1/%2（下发 AbortJob 命令：其 %n 个 Pod 结束，作业保留为 Aborted 状态）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %1 %2/%3 with its %n pod(s)</source>
        <translation>
            <numerusform>删除 %1 %2/%3 及其 %n 个 Pod</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2/%3: its controller will start new pods for the deleted ones</source>
        <translation>%1 %2/%3：其控制器会为被删除的 Pod 启动新的 Pod</translation>
    </message>
    <message>
        <source>Delete %1 %2/%3 with its pods</source>
        <translation>删除 %1 %2/%3 及其 Pod</translation>
    </message>
    <message>
        <source>End PID %1 (%2) on %3, GPU %4: TERM, then KILL after %5 s</source>
        <translation>结束 %3 上 GPU %4 的进程 PID %1（%2）：先发 TERM，%5 秒后发 KILL</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>node %1 is gone from the cluster</source>
        <translation>节点 %1 已不在集群中</translation>
    </message>
    <message>
        <source>%1/%2 left in place: a %3 pod, as kubectl drain leaves it</source>
        <translation>%1/%2 保持不动：它是 %3 的 Pod，kubectl drain 也不会驱逐它</translation>
    </message>
    <message>
        <source>Evict pod %1/%2 — a bare pod: nothing will start it again</source>
        <translation>驱逐 Pod %1/%2 —— 这是裸 Pod：不会有任何控制器重新启动它</translation>
    </message>
    <message>
        <source>Evict pod %1/%2 (its %3 may start it elsewhere)</source>
        <translation>驱逐 Pod %1/%2（其 %3 可能会在别处重新启动它）</translation>
    </message>
    <message>
        <source>%1 on %2: no action — %3</source>
        <translation>%2 上的%1：不采取操作 —— %3</translation>
    </message>
    <message>
        <source>pod %1/%2 is gone already</source>
        <translation>Pod %1/%2 已不存在</translation>
    </message>
    <message>
        <source>%1: reboot it once drained — gpudesk does not reboot nodes</source>
        <translation>%1：排空后请重启该节点 —— gpudesk 不会重启节点</translation>
    </message>
    <message numerus="yes">
        <source>Clean up %n finding(s) holding %1 GPUs</source>
        <translation>
            <numerusform>清理 %n 项占用 %1 块 GPU 的问题</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Stop %n workload(s)</source>
        <translation>
            <numerusform>停止 %n 个工作负载</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n workload(s)</source>
        <translation>
            <numerusform>删除 %n 个工作负载</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cordon %n node(s)</source>
        <translation>
            <numerusform>封锁 %n 个节点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Uncordon %n node(s)</source>
        <translation>
            <numerusform>解除封锁 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Cordon %1: no new pods are scheduled there</source>
        <translation>封锁 %1：不再向其调度新的 Pod</translation>
    </message>
    <message>
        <source>Uncordon %1: pods may be scheduled there again</source>
        <translation>解除封锁 %1：Pod 可以再次调度到该节点</translation>
    </message>
    <message>
        <source>Drain %1</source>
        <translation>排空 %1</translation>
    </message>
    <message numerus="yes">
        <source>End %n process(es) on %1</source>
        <translation>
            <numerusform>结束 %1 上的 %n 个进程</numerusform>
        </translation>
    </message>
    <message>
        <source>PID %1 is no longer listed on %2</source>
        <translation>PID %1 已不在 %2 的进程列表中</translation>
    </message>
    <message>
        <source>Replace %1 with the edited version</source>
        <translation>用编辑后的版本替换 %1</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>编辑 %1</translation>
    </message>
    <message>
        <source>Create %1</source>
        <translation>创建 %1</translation>
    </message>
    <message numerus="yes">
        <source>it would evict %n pod(s) of %1 user(s) holding %2 GPUs</source>
        <translation>
            <numerusform>这会驱逐 %1 位用户的 %n 个 Pod，共占用 %2 张 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on %2: not in this plan — its remedy drains the node, and %3. Drain %2 on its own, where each pod it evicts is listed and the node&apos;s name is typed to confirm.</source>
        <translation>%2 上的“%1”：未纳入本计划——其处理方式是排空节点，而%3。请单独排空 %2：届时会逐一列出被驱逐的 Pod，并须输入节点名称确认。</translation>
    </message>
</context>
<context>
    <name>PriorityClasses</name>
    <message>
        <source>The server&apos;s answer is not a list of PriorityClasses.</source>
        <translation>服务器的回答不是 PriorityClass 列表。</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>The API server&apos;s node list is not valid JSON.</source>
        <translation>API 服务器返回的节点列表不是有效的 JSON。</translation>
    </message>
    <message>
        <source>Harbor&apos;s answer is not JSON (%1).</source>
        <translation>Harbor 的响应不是 JSON（%1）。</translation>
    </message>
    <message>
        <source>Harbor&apos;s answer is not a list.</source>
        <translation>Harbor 的响应不是列表。</translation>
    </message>
</context>
<context>
    <name>QueuePlanner</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 is Volcano&apos;s own VC and cannot be deleted.</source>
        <translation>%1 是 Volcano 自带的虚拟集群，不能删除。</translation>
    </message>
    <message>
        <source>%1 has child VCs (%2): move or delete them first.</source>
        <translation>%1 下有子虚拟集群（%2）：请先移走或删除它们。</translation>
    </message>
    <message numerus="yes">
        <source>%1 still holds %n job(s) (%2): close it and wait for them to end, or merge it into another VC.</source>
        <translation>
            <numerusform>%1 中仍有 %n 个作业（%2）：请先关闭它并等作业结束，或把它合并到另一个虚拟集群。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n user(s) are bound to %1 (%2): move them to another VC first, or merge.</source>
        <translation>
            <numerusform>有 %n 个用户绑定在 %1（%2）：请先把他们移到另一个虚拟集群，或做合并。</numerusform>
        </translation>
    </message>
    <message>
        <source>capability %1 → %2</source>
        <translation>上限 %1 → %2</translation>
    </message>
    <message>
        <source>deserved %1 → %2</source>
        <translation>应得 %1 → %2</translation>
    </message>
    <message>
        <source>guarantee %1 → %2</source>
        <translation>保障 %1 → %2</translation>
    </message>
    <message>
        <source>weight %1 → %2</source>
        <translation>权重 %1 → %2</translation>
    </message>
    <message>
        <source>reclaimable</source>
        <translation>可回收</translation>
    </message>
    <message>
        <source>not reclaimable</source>
        <translation>不可回收</translation>
    </message>
    <message>
        <source>parent %1 → %2</source>
        <translation>父级 %1 → %2</translation>
    </message>
    <message>
        <source>Write VC %1 unchanged</source>
        <translation>按原样写回虚拟集群 %1</translation>
    </message>
    <message>
        <source>Change VC %1: %2</source>
        <translation>修改虚拟集群 %1：%2</translation>
    </message>
    <message>
        <source>Open VC %1: it admits new jobs again</source>
        <translation>开启虚拟集群 %1：重新接纳新作业</translation>
    </message>
    <message>
        <source>Close VC %1: it admits no new job; running jobs go on</source>
        <translation>关闭虚拟集群 %1：不再接纳新作业，运行中的作业继续</translation>
    </message>
    <message>
        <source>Delete VC %1</source>
        <translation>删除虚拟集群 %1</translation>
    </message>
    <message>
        <source>Create VC %1</source>
        <translation>创建虚拟集群 %1</translation>
    </message>
    <message>
        <source>Create VC %1: capability %2, deserved %3, guarantee %4, weight %5</source>
        <translation>创建虚拟集群 %1：上限 %2，应得 %3，保障 %4，权重 %5</translation>
    </message>
    <message>
        <source>Change VC %1</source>
        <translation>修改虚拟集群 %1</translation>
    </message>
    <message>
        <source>Nothing changes.</source>
        <translation>没有任何改动。</translation>
    </message>
    <message>
        <source>Open VC %1</source>
        <translation>开启虚拟集群 %1</translation>
    </message>
    <message>
        <source>Close VC %1</source>
        <translation>关闭虚拟集群 %1</translation>
    </message>
    <message>
        <source>The VC %1 no longer exists.</source>
        <translation>虚拟集群 %1 已不存在。</translation>
    </message>
    <message>
        <source>%1 is open already.</source>
        <translation>%1 已经是开启状态。</translation>
    </message>
    <message>
        <source>%1 is %2 already.</source>
        <translation>%1 已经是 %2 状态。</translation>
    </message>
    <message numerus="yes">
        <source>%1 goes Closing: its %n job(s) keep running, new jobs are refused, and it becomes Closed when they have ended.</source>
        <translation>
            <numerusform>%1 进入 Closing（关闭中）：其 %n 个作业继续运行，新作业被拒绝，作业结束后变为 Closed（已关闭）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 has no job: it becomes Closed at once.</source>
        <translation>%1 中没有作业：立即变为 Closed（已关闭）。</translation>
    </message>
    <message numerus="yes">
        <source>%n user(s) submit to %1 (%2): their new jobs will be refused.</source>
        <translation>
            <numerusform>有 %n 个用户向 %1 提交作业（%2）：他们的新作业将被拒绝。</numerusform>
        </translation>
    </message>
    <message>
        <source>Merge VC %1 into %2</source>
        <translation>把虚拟集群 %1 合并到 %2</translation>
    </message>
    <message>
        <source>Both VCs must exist.</source>
        <translation>两个虚拟集群都必须存在。</translation>
    </message>
    <message>
        <source>A VC cannot be merged into itself.</source>
        <translation>虚拟集群不能合并到自身。</translation>
    </message>
    <message>
        <source>%1 is Volcano&apos;s own VC: merge the others into it instead.</source>
        <translation>%1 是 Volcano 自带的虚拟集群：请反过来把其他虚拟集群合并进它。</translation>
    </message>
    <message>
        <source>%1 has child VCs (%2 among them): move them first.</source>
        <translation>%1 下有子虚拟集群（包括 %2）：请先把它们移走。</translation>
    </message>
    <message>
        <source>%1 has no %2 capability: %3 keeps its own (%4).</source>
        <translation>%1 没有设置 %2 上限：%3 保留自己的上限（%4）。</translation>
    </message>
    <message>
        <source>Move %1 (%2) from %3 to %4</source>
        <translation>把 %1（%2）从 %3 移到 %4</translation>
    </message>
    <message>
        <source>merge of %1 into %2</source>
        <translation>把 %1 合并到 %2</translation>
    </message>
    <message>
        <source>%1 is Closing: Volcano refuses changes to a queue in that state. Wait until it is Closed, or open it again first.</source>
        <translation>%1 正在关闭：Volcano 拒绝修改处于该状态的队列。请等待其变为已关闭，或先重新开放它。</translation>
    </message>
    <message>
        <source>Delete the pod group of %1/%2, which is over: it alone keeps %3 open</source>
        <translation>删除 %1/%2 已结束作业的 PodGroup：只有它还让 %3 无法关闭</translation>
    </message>
    <message numerus="yes">
        <source>%1 keeps its %n running or waiting job(s) (%2) until they end (Volcano does not move a job between queues): it stays Closing, admitting no new job, and can be deleted from the VCs page once they have ended.</source>
        <translation>
            <numerusform>%1 中仍有 %n 个运行或等待中的作业（%2），会保留到它们结束（Volcano 不会在队列之间迁移作业）：在此期间它处于 Closing 状态，不再接收新作业；作业结束后可在“虚拟集群”页删除它。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QueueRules</name>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>A VC needs a name.</source>
        <translation>虚拟集群需要一个名称。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid VC name: lower-case letters, digits, &apos;-&apos; and &apos;.&apos;, starting and ending with a letter or digit.</source>
        <translation>“%1”不是有效的虚拟集群名称：只能用小写字母、数字、“-”和“.”，且以字母或数字开头和结尾。</translation>
    </message>
    <message>
        <source>A VC named %1 already exists.</source>
        <translation>名为 %1 的虚拟集群已存在。</translation>
    </message>
    <message>
        <source>The VC %1 no longer exists.</source>
        <translation>虚拟集群 %1 已不存在。</translation>
    </message>
    <message>
        <source>The root VC&apos;s resources cannot be changed.</source>
        <translation>根虚拟集群（root）的资源不能修改。</translation>
    </message>
    <message>
        <source>The weight must be at least 1.</source>
        <translation>权重至少为 1。</translation>
    </message>
    <message>
        <source>%1 guaranteed (%2) needs a deserved amount of at least as much.</source>
        <translation>%1 的保障量（%2）需要设置不少于它的应得量。</translation>
    </message>
    <message>
        <source>%1 deserved (%2) is below the guarantee (%3): deserved must be at least what is guaranteed.</source>
        <translation>%1 的应得量（%2）低于保障量（%3）：应得量必须不少于保障量。</translation>
    </message>
    <message>
        <source>%1 deserved (%2) is above the capability (%3): a VC cannot deserve more than its ceiling.</source>
        <translation>%1 的应得量（%2）高于上限（%3）：虚拟集群的应得量不能超过它的上限。</translation>
    </message>
    <message>
        <source>%1 guaranteed (%2) is above the capability (%3).</source>
        <translation>%1 的保障量（%2）高于上限（%3）。</translation>
    </message>
    <message>
        <source>A VC cannot be its own parent.</source>
        <translation>虚拟集群不能以自己为父级。</translation>
    </message>
    <message>
        <source>The parent VC %1 does not exist.</source>
        <translation>父级虚拟集群 %1 不存在。</translation>
    </message>
    <message>
        <source>%1 is below %2 already: making it %2&apos;s parent would make a loop.</source>
        <translation>%1 已经在 %2 之下：把它设为 %2 的父级会形成环。</translation>
    </message>
    <message>
        <source>%1 capability (%2) exceeds the capability of %3 above it (%4).</source>
        <translation>%1 上限（%2）超过了其上级 %3 的上限（%4）。</translation>
    </message>
    <message>
        <source>The guarantees of %1&apos;s children (%2) would add up to %3 %4, more than %1&apos;s own guarantee of %5.</source>
        <translation>%1 的子虚拟集群（%2）的保障量合计将达 %3 %4，超过 %1 自身的保障量 %5。</translation>
    </message>
    <message>
        <source>The deserved shares of %1&apos;s children (%2) would add up to %3 %4, more than %1 itself deserves (%5).</source>
        <translation>%1 的子虚拟集群（%2）的应得量合计将达 %3 %4，超过 %1 自身的应得量（%5）。</translation>
    </message>
    <message>
        <source>%1 capability (%2) is below the capability of %3 under it (%4).</source>
        <translation>%1 上限（%2）低于其下级 %3 的上限（%4）。</translation>
    </message>
    <message>
        <source>%1 guaranteed (%2) is less than its children&apos;s guarantees add up to (%3).</source>
        <translation>%1 的保障量（%2）少于其子虚拟集群保障量之和（%3）。</translation>
    </message>
    <message>
        <source>%1 deserved (%2) is less than its children&apos;s deserved shares add up to (%3).</source>
        <translation>%1 的应得量（%2）少于其子虚拟集群应得量之和（%3）。</translation>
    </message>
    <message>
        <source>The %1 capability (%2) is below the %3 the VC holds now: its running jobs keep running, and no new job is admitted until it holds less.</source>
        <translation>%1 上限（%2）低于该虚拟集群当前占用的 %3：运行中的作业继续运行，在占用降下来之前不再接纳新作业。</translation>
    </message>
    <message>
        <source>The top-level VCs&apos; GPU guarantees would add up to %1, more than the cluster&apos;s %2 GPUs: not every guarantee can be kept.</source>
        <translation>顶层虚拟集群的 GPU 保障量合计将达 %1，超过集群的 %2 张 GPU：无法兑现所有保障。</translation>
    </message>
    <message>
        <source>A new VC: no jobs run in it yet. Bind users to it from the Users page.</source>
        <translation>新虚拟集群：其中还没有作业。可在“用户”页把用户绑定到它。</translation>
    </message>
    <message numerus="yes">
        <source>%n running job(s) keep running: changing a VC never touches running jobs.</source>
        <translation>
            <numerusform>%n 个运行中的作业继续运行：修改虚拟集群不会影响运行中的作业。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n waiting job(s) would be admitted: %1.</source>
        <translation>
            <numerusform>%n 个等待中的作业将被接纳：%1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n waiting job(s) that the VC would admit today would wait instead: %1.</source>
        <translation>
            <numerusform>%n 个本可现在被接纳的作业将改为等待：%1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) would still wait for room in the VC.</source>
        <translation>
            <numerusform>仍有 %n 个作业要等待虚拟集群腾出资源。</numerusform>
        </translation>
    </message>
    <message>
        <source>No job in the VC is affected.</source>
        <translation>虚拟集群中的作业不受影响。</translation>
    </message>
</context>
<context>
    <name>RegistryDecoder</name>
    <message>
        <source>The registry sent a %1 that is not a JSON object: %2</source>
        <translation>镜像仓库发来的%1不是 JSON 对象：%2</translation>
    </message>
    <message>
        <source>no object</source>
        <translation>不是对象</translation>
    </message>
    <message>
        <source>a descriptor has no valid digest (%1)</source>
        <translation>某个描述符没有有效的摘要（%1）</translation>
    </message>
    <message>
        <source>the descriptor of %1 has no valid size</source>
        <translation>%1 的描述符没有有效的大小</translation>
    </message>
    <message>
        <source>The registry&apos;s %1 has no list of %2.</source>
        <translation>镜像仓库的%1中没有 %2 列表。</translation>
    </message>
    <message>
        <source>%1 is a Docker schema 1 manifest, which registries stopped serving in 2019 and gpudesk does not read; push the image again with a current tool.</source>
        <translation>%1 是 Docker schema 1 清单，镜像仓库自 2019 年起已不再提供，gpudesk 不读取它；请用当前的工具重新推送该镜像。</translation>
    </message>
    <message>
        <source>manifest</source>
        <translation>清单</translation>
    </message>
    <message>
        <source>%1 has schemaVersion %2; gpudesk reads version 2 (Docker schema 2 and OCI).</source>
        <translation>%1 的 schemaVersion 为 %2；gpudesk 读取第 2 版（Docker schema 2 与 OCI）。</translation>
    </message>
    <message>
        <source>The index %1 has no list of manifests.</source>
        <translation>索引 %1 中没有清单列表。</translation>
    </message>
    <message>
        <source>The index %1 is malformed: %2</source>
        <translation>索引 %1 格式错误：%2</translation>
    </message>
    <message>
        <source>The manifest %1 has no usable config: %2</source>
        <translation>清单 %1 没有可用的 config：%2</translation>
    </message>
    <message>
        <source>The manifest %1 has no list of layers.</source>
        <translation>清单 %1 中没有层列表。</translation>
    </message>
    <message>
        <source>The manifest %1 is malformed: %2</source>
        <translation>清单 %1 格式错误：%2</translation>
    </message>
    <message>
        <source>image configuration</source>
        <translation>镜像配置</translation>
    </message>
    <message>
        <source>catalog</source>
        <translation>仓库目录</translation>
    </message>
    <message>
        <source>tag list</source>
        <translation>标签列表</translation>
    </message>
</context>
<context>
    <name>SaveImagePlanner</name>
    <message>
        <source>Save dev environment %1 as %2</source>
        <translation>将开发环境 %1 保存为镜像 %2</translation>
    </message>
    <message>
        <source>chosen on the Dev environments page</source>
        <translation>在“开发环境”页面中选择</translation>
    </message>
    <message>
        <source>The environment&apos;s pod %1 is %2: only a running container can be saved.</source>
        <translation>该环境的 Pod %1 处于 %2 状态：只有正在运行的容器才能保存。</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <source>No credentials for %1: give the user and password to push with.</source>
        <translation>没有 %1 的凭据：请填写用于推送的用户名和密码。</translation>
    </message>
    <message>
        <source>The credentials found for %1 are a token, which a node&apos;s login cannot take: give a user and password.</source>
        <translation>为 %1 找到的凭据是令牌，节点上的 login 无法使用：请填写用户名和密码。</translation>
    </message>
    <message>
        <source>%1 is not a reference a node can push to (host/repository:tag, lower case).</source>
        <translation>%1 不是节点可以推送的镜像引用（应为 主机/仓库:标签，小写）。</translation>
    </message>
    <message>
        <source>Commit container %1 of %2 on %3 with %4, push it as %5, and check the tag&apos;s digest in the registry</source>
        <translation>在 %3 上用 %4 提交 %2 的容器 %1，推送为 %5，并在镜像仓库中核对该标签的摘要</translation>
    </message>
    <message>
        <source>   (the password on standard input)</source>
        <translation>   （密码经标准输入传递）</translation>
    </message>
    <message>
        <source>%1 exists (%2): it will name the new image, and whoever pulls it gets that from now on. Skipped if the tag moves before the push.</source>
        <translation>%1 已存在（%2）：它将指向新镜像，此后拉取它的人都会得到新镜像。如果推送前该标签被改动，此步骤将被跳过。</translation>
    </message>
    <message>
        <source>The container is paused while it is committed (seconds, minutes for a large one): running kernels and terminals wait meanwhile.</source>
        <translation>提交期间容器会被暂停（数秒，大容器可能数分钟）：运行中的内核和终端在此期间会等待。</translation>
    </message>
    <message>
        <source>Only the container&apos;s own files are saved: the home volume and the NAS are mounted, not part of the image. Keep data there, not in the image.</source>
        <translation>只保存容器自身的文件：主目录卷和 NAS 是挂载的，不属于镜像。数据请放在那里，而不是镜像里。</translation>
    </message>
    <message>
        <source>%1&apos;s credentials (%2) are used on %3 for this push only, in a directory removed afterwards.</source>
        <translation>%1 的凭据（%2）仅为本次推送在 %3 上使用，存放于推送后即删除的目录中。</translation>
    </message>
    <message>
        <source>%1 is reached over plain HTTP: the password and the image cross the network unencrypted.</source>
        <translation>%1 通过明文 HTTP 访问：密码和镜像将以未加密方式在网络上传输。</translation>
    </message>
</context>
<context>
    <name>SshConfig</name>
    <message>
        <source>Cannot read the SSH config %1: %2</source>
        <translation>无法读取 SSH 配置 %1：%2</translation>
    </message>
    <message>
        <source>%1 line %2: Match blocks are not supported; skipped.</source>
        <translation>%1 第 %2 行：不支持 Match 块，已跳过。</translation>
    </message>
    <message>
        <source>%1 line %2: Include nested too deeply.</source>
        <translation>%1 第 %2 行：Include 嵌套层数过多。</translation>
    </message>
    <message>
        <source>%1 (ssh refuses this file too).</source>
        <translation>%1（ssh 同样会拒绝此文件）。</translation>
    </message>
    <message>
        <source>%1 line %2</source>
        <translation>%1 第 %2 行</translation>
    </message>
    <message>
        <source>%1: Bad configuration option: %2</source>
        <translation>%1：无效的配置项：%2</translation>
    </message>
    <message>
        <source>%1: Missing argument to %2</source>
        <translation>%1：%2 缺少参数</translation>
    </message>
    <message>
        <source>%1: Bad port &quot;%2&quot;</source>
        <translation>%1：端口“%2”无效</translation>
    </message>
    <message>
        <source>%1: %2 is not followed by gpudesk; it reaches the host as if it were not set.</source>
        <translation>%1：gpudesk 不支持 %2；连接主机时视同未设置此项。</translation>
    </message>
    <message>
        <source>ProxyCommand for %1: &quot;%2&quot; would reach the shell unquoted; refused.</source>
        <translation>%1 的 ProxyCommand：“%2”会未经引号进入 shell，已拒绝。</translation>
    </message>
    <message>
        <source>ProxyCommand for %1: unknown token %%2.</source>
        <translation>%1 的 ProxyCommand：未知的占位符 %%2。</translation>
    </message>
    <message>
        <source>%1 line %2: more than %3 files Included (does a file Include itself?); the rest are skipped.</source>
        <translation>%1 第 %2 行：Include 的文件超过 %3 个（是否有文件 Include 了自身？）；其余的已跳过。</translation>
    </message>
    <message>
        <source>%1 line %2: cannot read the Included %3: %4</source>
        <translation>%1 第 %2 行：无法读取 Include 的 %3：%4</translation>
    </message>
</context>
<context>
    <name>SshConnection</name>
    <message>
        <source>Cannot create an SSH session.</source>
        <translation>无法创建 SSH 会话。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Cannot reach %1:%2: %3</source>
        <translation>无法连接 %1:%2：%3</translation>
    </message>
    <message>
        <source>Cannot reach %1:%2 through %3: %4</source>
        <translation>无法经由 %3 连接 %1:%2：%4</translation>
    </message>
    <message>
        <source>%1 sent no host key.</source>
        <translation>%1 没有发送主机密钥。</translation>
    </message>
    <message>
        <source>The host key of %1 has changed: it now sends %2 key %3, which is not the key in %4. Someone could be intercepting the connection (man in the middle), or the node was reinstalled. gpudesk will not connect until the old key is removed from known_hosts (ssh-keygen -R) after you have checked the new one.</source>
        <translation>%1 的主机密钥已变更：它现在发送的是 %2 密钥 %3，与 %4 中记录的不一致。可能有人正在截获连接（中间人攻击），也可能是节点被重装了。在您核实新密钥并从 known_hosts 中删除旧密钥（ssh-keygen -R）之前，gpudesk 不会连接。</translation>
    </message>
    <message>
        <source>%1 is not a known host. Its %2 key fingerprint is %3. Trust it only if this is the node&apos;s key.</source>
        <translation>%1 不是已知主机。它的 %2 密钥指纹为 %3。只有确认这是该节点的密钥时才信任它。</translation>
    </message>
    <message>
        <source>Cannot check the host key of %1 against %2: %3</source>
        <translation>无法用 %2 校验 %1 的主机密钥：%3</translation>
    </message>
    <message>
        <source>Authentication with %1 failed: %2</source>
        <translation>在 %1 上认证失败：%2</translation>
    </message>
    <message>
        <source>ssh-agent</source>
        <translation>ssh-agent</translation>
    </message>
    <message>
        <source>%1 (needs its passphrase)</source>
        <translation>%1（需要口令）</translation>
    </message>
    <message>
        <source>%1 (unreadable)</source>
        <translation>%1（无法读取）</translation>
    </message>
    <message>
        <source>%1 (wrong passphrase)</source>
        <translation>%1（口令错误）</translation>
    </message>
    <message>
        <source>%1 (refused)</source>
        <translation>%1（被拒绝）</translation>
    </message>
    <message>
        <source>no method offered that gpudesk can use</source>
        <translation>服务器没有提供 gpudesk 可用的认证方式</translation>
    </message>
    <message>
        <source>%1 refused every key. Tried: %2.</source>
        <translation>%1 拒绝了所有密钥。已尝试：%2。</translation>
    </message>
    <message>
        <source>no key found</source>
        <translation>未找到密钥</translation>
    </message>
    <message>
        <source>%1 asks for a password.</source>
        <translation>%1 要求输入密码。</translation>
    </message>
    <message>
        <source>The key %1 needs its passphrase to log in to %2.</source>
        <translation>密钥 %1 需要口令才能登录 %2。</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>%1 refused the command channel: %2</source>
        <translation>%1 拒绝打开命令通道：%2</translation>
    </message>
    <message>
        <source>%1 did not answer within %2 s.</source>
        <translation>%1 在 %2 秒内没有响应。</translation>
    </message>
    <message>
        <source>The connection to %1 broke: %2</source>
        <translation>与 %1 的连接中断：%2</translation>
    </message>
    <message>
        <source>%1 sent more than %2 MiB; cut off.</source>
        <translation>%1 发送的数据超过 %2 MiB，已截断。</translation>
    </message>
    <message>
        <source>Lost the connection to %1.</source>
        <translation>与 %1 的连接已断开。</translation>
    </message>
    <message>
        <source>password (refused)</source>
        <translation>密码（被拒绝）</translation>
    </message>
    <message>
        <source>%1 refused the password.</source>
        <translation>%1 拒绝了该密码。</translation>
    </message>
    <message>
        <source>Cannot reach %1:%2 through the ProxyCommand &quot;%3&quot;: %4</source>
        <translation>无法通过 ProxyCommand“%3”连接 %1:%2：%4</translation>
    </message>
    <message>
        <source>it accepted the connection but sent no SSH greeting within %1 s (its SSH server is stuck, or another program listens on that port)</source>
        <translation>它接受了连接，但 %1 秒内没有发送 SSH 问候（其 SSH 服务器卡住了，或该端口上监听的是别的程序）</translation>
    </message>
    <message>
        <source>%1 stopped answering: no reply to opening a command within %2 s.</source>
        <translation>%1 已停止响应：%2 秒内没有回应打开命令的请求。</translation>
    </message>
    <message>
        <source>%1 stopped answering: no output from a command within %2 s, and no reply to opening another within %3 s.</source>
        <translation>%1 已停止响应：命令在 %2 秒内没有输出，再打开一个命令在 %3 秒内也没有回应。</translation>
    </message>
</context>
<context>
    <name>UserCsv</name>
    <message>
        <source>Line %1 must be a header naming the columns, with at least &quot;name&quot; (and vc, gpus, cpu, memory, pods, storage, role, view-role as needed).</source>
        <translation>第 %1 行必须是列名表头，至少包含“name”（按需加上 vc、gpus、cpu、memory、pods、storage、role、view-role）。</translation>
    </message>
    <message>
        <source>Line %1: unknown column &quot;%2&quot; (known: %3).</source>
        <translation>第 %1 行：未知的列“%2”（可用的列：%3）。</translation>
    </message>
    <message>
        <source>line %1: a quote is not closed</source>
        <translation>第 %1 行：引号没有闭合</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>line %1: %2 &quot;%3&quot; is not a quantity (e.g. 8, 500m, 960Gi)</source>
        <translation>第 %1 行：%2“%3”不是有效的数量（例如 8、500m、960Gi）</translation>
    </message>
    <message>
        <source>line %1: %2 fields, the header names %3</source>
        <translation>第 %1 行：有 %2 个字段，而表头只有 %3 列</translation>
    </message>
    <message>
        <source>The file has no header line and no users.</source>
        <translation>文件既没有表头也没有用户。</translation>
    </message>
    <message>
        <source>line %1: %2 comes twice in the file (first on line %3)</source>
        <translation>第 %1 行：%2 在文件中出现了两次（第一次在第 %3 行）</translation>
    </message>
    <message>
        <source>Line %1 is longer than %2 KiB: not a list of users.</source>
        <translation>第 %1 行超过 %2 KiB：这不是用户列表。</translation>
    </message>
    <message>
        <source>More than %1 users in one file (line %2): gpudesk imports at most %1 at a time, each shown to be checked — split the file.</source>
        <translation>一个文件中的用户超过 %1 个（第 %2 行）：gpudesk 每次最多导入 %1 个，并逐一列出供检查——请拆分文件。</translation>
    </message>
</context>
<context>
    <name>UserDriftCheck</name>
    <message>
        <source>label gpudesk.io/vc</source>
        <translation>标签 gpudesk.io/vc</translation>
    </message>
    <message>
        <source>The namespace names no VC: tools that fill in a job&apos;s queue from it have nothing to go by.</source>
        <translation>该命名空间没有指定虚拟集群：依据它填写作业队列的工具无从参考。</translation>
    </message>
    <message>
        <source>ServiceAccount %1</source>
        <translation>ServiceAccount %1</translation>
    </message>
    <message>
        <source>Missing: no kubeconfig can be handed out for the user.</source>
        <translation>缺失：无法为该用户发放 kubeconfig。</translation>
    </message>
    <message>
        <source>Create the ServiceAccount %1.</source>
        <translation>创建 ServiceAccount %1。</translation>
    </message>
    <message>
        <source>RoleBinding %1</source>
        <translation>RoleBinding %1</translation>
    </message>
    <message>
        <source>Missing: the user may do nothing in their namespace.</source>
        <translation>缺失：该用户在自己的命名空间里什么都做不了。</translation>
    </message>
    <message>
        <source>Bind %1 and its ServiceAccount to the ClusterRole edit in %2.</source>
        <translation>在 %2 中把 %1 及其 ServiceAccount 绑定到 ClusterRole edit。</translation>
    </message>
    <message>
        <source>It no longer binds the user %1.</source>
        <translation>它不再绑定用户 %1。</translation>
    </message>
    <message>
        <source>It no longer binds the ServiceAccount %1: kubeconfigs handed out lose their rights.</source>
        <translation>它不再绑定 ServiceAccount %1：已发放的 kubeconfig 将失去权限。</translation>
    </message>
    <message>
        <source>Add the missing subject to %1.</source>
        <translation>把缺少的主体加回 %1。</translation>
    </message>
    <message>
        <source>ResourceQuota %1</source>
        <translation>ResourceQuota %1</translation>
    </message>
    <message>
        <source>Missing: nothing limits what the user may take.</source>
        <translation>缺失：该用户可用的资源没有任何限制。</translation>
    </message>
    <message>
        <source>Create the quota with gpudesk&apos;s default limits.</source>
        <translation>按 gpudesk 的默认限额创建配额。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Edited outside gpudesk: %1.</source>
        <translation>在 gpudesk 之外被修改：%1。</translation>
    </message>
    <message>
        <source>Edited outside gpudesk (by %1): %2.</source>
        <translation>在 gpudesk 之外被修改（由 %1）：%2。</translation>
    </message>
    <message>
        <source>Put back the limits gpudesk set.</source>
        <translation>恢复 gpudesk 设置的限额。</translation>
    </message>
    <message>
        <source>LimitRange %1</source>
        <translation>LimitRange %1</translation>
    </message>
    <message>
        <source>No default requests: the quota refuses every pod that names no CPU or memory request.</source>
        <translation>没有默认请求值：配额会拒绝所有未声明 CPU 或内存请求的 Pod。</translation>
    </message>
    <message>
        <source>Create a LimitRange with default requests of 1 CPU and 4 GiB.</source>
        <translation>创建默认请求为 1 CPU、4 GiB 的 LimitRange。</translation>
    </message>
</context>
<context>
    <name>UserPlanner</name>
    <message>
        <source>%1 %2 → %3 (%4 in use)</source>
        <translation>%1 %2 → %3（已用 %4）</translation>
    </message>
    <message>
        <source>Create user %1</source>
        <translation>创建用户 %1</translation>
    </message>
    <message numerus="yes">
        <source>Create %n users</source>
        <translation>
            <numerusform>创建 %n 个用户</numerusform>
        </translation>
    </message>
    <message>
        <source>line %1 (%2) not created: %3</source>
        <translation>第 %1 行（%2）未创建：%3</translation>
    </message>
    <message>
        <source>%1 not created: %2</source>
        <translation>%1 未创建：%2</translation>
    </message>
    <message>
        <source>user %1, line %2 of the file</source>
        <translation>用户 %1，文件第 %2 行</translation>
    </message>
    <message>
        <source>new user %1</source>
        <translation>新用户 %1</translation>
    </message>
    <message>
        <source>Create namespace %1 for %2</source>
        <translation>为 %2 创建命名空间 %1</translation>
    </message>
    <message>
        <source>Create namespace %1 for %2, in VC %3</source>
        <translation>为 %2 创建命名空间 %1，属于虚拟集群 %3</translation>
    </message>
    <message>
        <source>Create ServiceAccount %1 (the identity of the kubeconfigs handed out)</source>
        <translation>创建 ServiceAccount %1（发放的 kubeconfig 所用的身份）</translation>
    </message>
    <message>
        <source>Bind %1 and its ServiceAccount to the ClusterRole %2 in %3</source>
        <translation>在 %3 中把 %1 及其 ServiceAccount 绑定到 ClusterRole %2</translation>
    </message>
    <message>
        <source>Limit %1 to %2</source>
        <translation>把 %1 限制为 %2</translation>
    </message>
    <message>
        <source>Give containers without requests default requests (so that the quota does not refuse them)</source>
        <translation>为没有声明请求值的容器提供默认请求（以免被配额拒绝）</translation>
    </message>
    <message>
        <source>Let %1 read cluster-wide (ClusterRole %2: nodes, VCs)</source>
        <translation>允许 %1 读取全集群信息（ClusterRole %2：节点、虚拟集群）</translation>
    </message>
    <message>
        <source>Checked when it runs: its namespace is made first</source>
        <translation>执行时再检查：要先创建它的命名空间</translation>
    </message>
    <message>
        <source>No user can be created as planned.</source>
        <translation>按计划无法创建任何用户。</translation>
    </message>
    <message>
        <source>A user whose step fails is rolled back: what was made for them is deleted again; the other users are not affected.</source>
        <translation>某个用户的步骤失败时会整体回滚：为其创建的对象会被删除；其他用户不受影响。</translation>
    </message>
    <message>
        <source>%1: the new limit %2 is below the %3 in use now. What runs keeps running; new pods are refused until use falls below it.</source>
        <translation>%1：新限额 %2 低于当前已用的 %3。正在运行的继续运行；在用量降到限额以下之前，新 Pod 会被拒绝。</translation>
    </message>
    <message>
        <source>Set the quota of %1 (no limit changes)</source>
        <translation>设置 %1 的配额（限额无变化）</translation>
    </message>
    <message>
        <source>Set the quota of %1: %2</source>
        <translation>设置 %1 的配额：%2</translation>
    </message>
    <message>
        <source>Change the quota of %1</source>
        <translation>修改 %1 的配额</translation>
    </message>
    <message>
        <source>Create the quota of %1 (it has none)</source>
        <translation>创建 %1 的配额（当前没有）</translation>
    </message>
    <message>
        <source>%1 has %2 ResourceQuotas: only %3 is changed; the others still apply.</source>
        <translation>%1 有 %2 个 ResourceQuota：只修改 %3，其余的仍然生效。</translation>
    </message>
    <message>
        <source>Move %1 to VC %2</source>
        <translation>把 %1 移到虚拟集群 %2</translation>
    </message>
    <message>
        <source>The namespace %1 is gone.</source>
        <translation>命名空间 %1 已不存在。</translation>
    </message>
    <message>
        <source>The VC %1 does not exist.</source>
        <translation>虚拟集群 %1 不存在。</translation>
    </message>
    <message>
        <source>%1 is in VC %2 already.</source>
        <translation>%1 已经在虚拟集群 %2 中。</translation>
    </message>
    <message>
        <source>Label %1 gpudesk.io/vc=%2 (was %3)</source>
        <translation>给 %1 打上标签 gpudesk.io/vc=%2（原为 %3）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) already submitted stay in the VC they name until they end (Volcano does not move a job between queues); new jobs go to %1.</source>
        <translation>
            <numerusform>已提交的 %n 个作业会留在原来指定的虚拟集群直到结束（Volcano 不会在队列之间移动作业）；新作业进入 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is %2: it takes no new jobs until it is opened.</source>
        <translation>%1 处于 %2 状态：开启之前不接纳新作业。</translation>
    </message>
    <message>
        <source>Disable %1</source>
        <translation>停用 %1</translation>
    </message>
    <message>
        <source>%1 is disabled already.</source>
        <translation>%1 已经被停用。</translation>
    </message>
    <message>
        <source>Record on %1 what disabling takes away (to give it back on enable)</source>
        <translation>在 %1 上记录停用时收回的内容（启用时据此恢复）</translation>
    </message>
    <message>
        <source>disabled from the Users page</source>
        <translation>在“用户”页停用</translation>
    </message>
    <message>
        <source>Set every limit of %1&apos;s quota to 0: no new pod starts</source>
        <translation>把 %1 配额的所有限额设为 0：不再启动新 Pod</translation>
    </message>
    <message>
        <source>%1 has no quota: nothing limits new pods but the missing rights.</source>
        <translation>%1 没有配额：除了权限被收回外，新 Pod 不受任何限制。</translation>
    </message>
    <message>
        <source>Delete RoleBinding %1: %2 and their kubeconfigs lose their rights in %3</source>
        <translation>删除 RoleBinding %1：%2 及其 kubeconfig 在 %3 中失去权限</translation>
    </message>
    <message numerus="yes">
        <source>%n pod(s) of the user keep running (%1 GPUs): stop them from the Workloads page if they must stop now.</source>
        <translation>
            <numerusform>该用户的 %n 个 Pod 会继续运行（%1 张 GPU）：如需立即停止，请在“工作负载”页停止它们。</numerusform>
        </translation>
    </message>
    <message>
        <source>Enable %1</source>
        <translation>启用 %1</translation>
    </message>
    <message>
        <source>%1 is not disabled by gpudesk (no record on its namespace).</source>
        <translation>%1 不是由 gpudesk 停用的（其命名空间上没有记录）。</translation>
    </message>
    <message>
        <source>Give %1&apos;s quota its limits back</source>
        <translation>恢复 %1 的配额限额</translation>
    </message>
    <message>
        <source>Make %1&apos;s quota again with its limits</source>
        <translation>按原限额重新创建 %1 的配额</translation>
    </message>
    <message>
        <source>Bind %1 to the ClusterRole %2 again</source>
        <translation>重新把 %1 绑定到 ClusterRole %2</translation>
    </message>
    <message>
        <source>Remove the record of the disabling from %1</source>
        <translation>从 %1 上移除停用记录</translation>
    </message>
    <message>
        <source>Delete user %1 and everything in %2</source>
        <translation>删除用户 %1 以及 %2 中的一切</translation>
    </message>
    <message>
        <source>Delete namespace %1 and everything in it</source>
        <translation>删除命名空间 %1 及其中的一切</translation>
    </message>
    <message>
        <source>deleted from the Users page</source>
        <translation>在“用户”页删除</translation>
    </message>
    <message>
        <source>ClusterRoleBinding %1 also names %2: left as it is.</source>
        <translation>ClusterRoleBinding %1 中也包含 %2：保持不变。</translation>
    </message>
    <message>
        <source>Delete ClusterRoleBinding %1 (cluster-wide read)</source>
        <translation>删除 ClusterRoleBinding %1（全集群只读）</translation>
    </message>
    <message numerus="yes">
        <source>Goes with it: %n pod(s) holding %1 GPUs, %2 dev environment(s).</source>
        <translation>
            <numerusform>将一并删除：%n 个 Pod（占用 %1 张 GPU），%2 个开发环境。</numerusform>
        </translation>
    </message>
    <message>
        <source>Jobs: %1</source>
        <translation>作业：%1</translation>
    </message>
    <message>
        <source>Volumes and their data (%1 in all): %2. Whether the data itself is deleted depends on each volume&apos;s reclaim policy.</source>
        <translation>存储卷及其数据（共 %1）：%2。数据本身是否删除取决于各存储卷的回收策略。</translation>
    </message>
    <message numerus="yes">
        <source>%n long-lived token(s) stop working.</source>
        <translation>
            <numerusform>%n 个长期令牌将失效。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not listed (could not be read): %1</source>
        <translation>未列出（无法读取）：%1</translation>
    </message>
    <message>
        <source>Revoke every token of %1</source>
        <translation>吊销 %1 的所有令牌</translation>
    </message>
    <message>
        <source>%1 has no ServiceAccount %2: no token was handed out through gpudesk.</source>
        <translation>%1 中没有 ServiceAccount %2：没有通过 gpudesk 发放过令牌。</translation>
    </message>
    <message>
        <source>Delete and make again the ServiceAccount %1: every token issued for it stops working</source>
        <translation>删除并重建 ServiceAccount %1：为它签发的所有令牌都将失效</translation>
    </message>
    <message>
        <source>POST %1/token (a witness token), DELETE %1 (preconditions.uid=%2), POST %3, then the witness is checked to be refused (401)</source>
        <translation>POST %1/token（签发见证令牌），DELETE %1（preconditions.uid=%2），POST %3，然后确认见证令牌被拒绝（401）</translation>
    </message>
    <message>
        <source>tokens revoked from the Users page</source>
        <translation>在“用户”页吊销令牌</translation>
    </message>
    <message>
        <source>The long-lived token Secret(s) %1 go with it (the token controller deletes them).</source>
        <translation>长期令牌 Secret %1 随之删除（由令牌控制器删除）。</translation>
    </message>
    <message>
        <source>Tools and kubeconfigs of %1 stop working at once; hand out a new kubeconfig afterwards if they should go on.</source>
        <translation>%1 的工具和 kubeconfig 将立即失效；如需继续使用，请随后重新发放 kubeconfig。</translation>
    </message>
    <message>
        <source>Repair %1</source>
        <translation>修复 %1</translation>
    </message>
    <message>
        <source>%1 names no VC: choose one with Move to VC.</source>
        <translation>%1 没有指定虚拟集群：请用“移到虚拟集群”选择一个。</translation>
    </message>
    <message>
        <source>repair of %1</source>
        <translation>修复 %1</translation>
    </message>
    <message>
        <source>Nothing to repair: %1&apos;s objects are as gpudesk made them.</source>
        <translation>无需修复：%1 的对象与 gpudesk 创建时一致。</translation>
    </message>
</context>
<context>
    <name>UserRules</name>
    <message>
        <source>A user needs a name.</source>
        <translation>用户需要一个名称。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid user name: lower-case letters, digits and &apos;-&apos;, starting with a letter and ending with a letter or digit, at most %2 characters.</source>
        <translation>“%1”不是有效的用户名：只能用小写字母、数字和“-”，以字母开头、以字母或数字结尾，最多 %2 个字符。</translation>
    </message>
    <message>
        <source>The namespace %1 exists already.</source>
        <translation>命名空间 %1 已存在。</translation>
    </message>
    <message>
        <source>%1 is a user already (namespace %2).</source>
        <translation>%1 已经是用户（命名空间 %2）。</translation>
    </message>
    <message>
        <source>Choose the VC the user&apos;s jobs run in.</source>
        <translation>请选择该用户作业运行的虚拟集群。</translation>
    </message>
    <message>
        <source>The VC %1 does not exist.</source>
        <translation>虚拟集群 %1 不存在。</translation>
    </message>
    <message>
        <source>Choose the ClusterRole the user is bound to in their namespace.</source>
        <translation>请选择该用户在其命名空间中绑定的 ClusterRole。</translation>
    </message>
    <message>
        <source>The quota for %1 cannot be negative.</source>
        <translation>%1 的配额不能为负数。</translation>
    </message>
</context>
<context>
    <name>VipJob</name>
    <message>
        <source>This is not a job gpudesk submits.</source>
        <translation>这不是 gpudesk 提交的作业。</translation>
    </message>
    <message>
        <source>The job has no name.</source>
        <translation>作业没有名称。</translation>
    </message>
    <message>
        <source>A %1 is not a job gpudesk submits.</source>
        <translation>%1 不是 gpudesk 提交的作业。</translation>
    </message>
    <message>
        <source>The job asks for no GPU: there are no machines to keep for it.</source>
        <translation>作业未申请 GPU：没有需要为它保留的机器。</translation>
    </message>
    <message>
        <source>The job&apos;s YAML has a field of the wrong type: %1</source>
        <translation>作业的 YAML 中有字段类型不正确：%1</translation>
    </message>
    <message>
        <source>The job names no namespace.</source>
        <translation>作业未指定命名空间。</translation>
    </message>
</context>
<context>
    <name>VipPlanner</name>
    <message>
        <source>Reserve %1 for the VIP job %2/%3: no new pod is scheduled there but its (taint %4=%5:NoSchedule)</source>
        <translation>为 VIP 作业 %2/%3 保留 %1：除它的 Pod 外不再有新 Pod 调度到这里（污点 %4=%5:NoSchedule）</translation>
    </message>
    <message numerus="yes">
        <source>VIP job %1/%2: reserve %n machine(s) and wait for them</source>
        <translation>
            <numerusform>VIP 作业 %1/%2：保留 %n 台机器并等待其空出</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>VIP job %1/%2: stop what runs on %n machine(s) and start there</source>
        <translation>
            <numerusform>VIP 作业 %1/%2：停止 %n 台机器上运行的作业并在其上启动</numerusform>
        </translation>
    </message>
    <message>
        <source>The cluster has no node %1.</source>
        <translation>集群中没有节点 %1。</translation>
    </message>
    <message>
        <source>It runs at the default priority: the cluster has no PriorityClass above it, so a job of higher priority could still preempt it.</source>
        <translation>它以默认优先级运行：集群没有更高的 PriorityClass，因此更高优先级的作业仍可能抢占它。</translation>
    </message>
    <message>
        <source>It runs at priority class %1, the cluster&apos;s highest: no job preempts it.</source>
        <translation>它以集群最高的优先级类 %1 运行：没有作业能抢占它。</translation>
    </message>
    <message numerus="yes">
        <source>Left to finish: %1 %2/%3 of %4 — %n GPU(s) on %5</source>
        <translation>
            <numerusform>等待其结束：%4 的 %1 %2/%3 —— 在 %5 上占用 %n 张 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing holds GPUs on the machines now: the job starts at once.</source>
        <translation>这些机器上目前没有占用 GPU 的作业：作业将立即启动。</translation>
    </message>
    <message>
        <source>The job waits until these end; nothing new is scheduled there meanwhile.</source>
        <translation>作业会等到它们结束；在此期间不会有新的 Pod 调度到这些机器。</translation>
    </message>
    <message>
        <source>The reservation stays until it is released (Nodes page), also after the job ends.</source>
        <translation>保留会一直生效，直到被释放（节点页面），作业结束后也是如此。</translation>
    </message>
    <message numerus="yes">
        <source>%1 %2/%3 of %4 holds %n GPU(s) there and is not stopped: its controller would start it again. The job waits for it.</source>
        <translation>
            <numerusform>%4 的 %1 %2/%3 在此占用 %n 张 GPU，不会被停止：其控制器会重新启动它。作业将等待它结束。</numerusform>
        </translation>
    </message>
    <message>
        <source>to free %1 for the VIP job %2/%3</source>
        <translation>为 VIP 作业 %2/%3 腾出 %1</translation>
    </message>
    <message>
        <source>VIP job on %1</source>
        <translation>在 %1 上运行的 VIP 作业</translation>
    </message>
    <message numerus="yes">
        <source>Release %n machine(s) reserved for a VIP job</source>
        <translation>
            <numerusform>释放为 VIP 作业保留的 %n 台机器</numerusform>
        </translation>
    </message>
    <message>
        <source>node %1 is gone from the cluster</source>
        <translation>节点 %1 已不在集群中</translation>
    </message>
    <message>
        <source>%1 is reserved for no VIP job</source>
        <translation>%1 未为任何 VIP 作业保留</translation>
    </message>
    <message>
        <source>Release %1, reserved for the VIP job %2: pods may be scheduled there again</source>
        <translation>释放为 VIP 作业 %2 保留的 %1：Pod 可以再次调度到这里</translation>
    </message>
    <message>
        <source>%1 is reserved for the VIP job %2: release it first (Nodes page), or choose another machine.</source>
        <translation>%1 已为 VIP 作业 %2 保留：请先释放它（节点页面），或选择其他机器。</translation>
    </message>
    <message>
        <source>%1 is reserved for this job already.</source>
        <translation>%1 已为此作业保留。</translation>
    </message>
</context>
<context>
    <name>gpudesk</name>
    <message>
        <source>gpudesk&apos;s samples</source>
        <translation>gpudesk 的采样</translation>
    </message>
    <message>
        <source>PID %1 on GPU %2 runs in no container: a process started on the host, outside Kubernetes</source>
        <translation>GPU %2 上的 PID %1 不在任何容器中：这是在主机上、Kubernetes 之外启动的进程</translation>
    </message>
    <message>
        <source>A host process may be someone&apos;s on purpose: ask its owner first.</source>
        <translation>主机进程可能是有人有意运行的：请先询问其所有者。</translation>
    </message>
    <message>
        <source>PID %1 on GPU %2 belongs to pod %3, which no longer exists</source>
        <translation>GPU %2 上的 PID %1 属于 Pod %3，而该 Pod 已不存在</translation>
    </message>
    <message>
        <source>No pod owns it: the kubelet will never stop it.</source>
        <translation>没有 Pod 拥有它：kubelet 永远不会停止它。</translation>
    </message>
    <message>
        <source>PID %1 on GPU %2 has been in uninterruptible sleep (D) for %3: no signal can end it, not even KILL</source>
        <translation>GPU %2 上的 PID %1 已处于不可中断睡眠（D）状态 %3：任何信号都无法结束它，KILL 也不行</translation>
    </message>
    <message>
        <source>Cordon and drain the node, then reboot it: a kill cannot work.</source>
        <translation>请封锁并排空该节点，然后重启：kill 无法奏效。</translation>
    </message>
    <message>
        <source>Only a GPU reset or a reboot frees such memory: drain the node first.</source>
        <translation>只有重置 GPU 或重启才能释放这类显存：请先排空节点。</translation>
    </message>
    <message>
        <source>the API (deletionTimestamp)</source>
        <translation>API（deletionTimestamp）</translation>
    </message>
    <message>
        <source>deleted %1 ago with a grace period of %2 s; still Terminating</source>
        <translation>%1 前已删除，宽限期 %2 秒；仍处于 Terminating</translation>
    </message>
    <message>
        <source>; its node is NotReady</source>
        <translation>；其节点为 NotReady</translation>
    </message>
    <message>
        <source>The node is NotReady: its kubelet cannot confirm the deletion.</source>
        <translation>节点为 NotReady：其 kubelet 无法确认删除。</translation>
    </message>
    <message>
        <source>; the node runs no container of it any more</source>
        <translation>；节点上已没有它的任何容器在运行</translation>
    </message>
    <message>
        <source>The node shows its containers gone: only the API object is left.</source>
        <translation>节点显示其容器已不存在：只剩下 API 对象。</translation>
    </message>
    <message>
        <source>; PID %1 of it still runs on GPU %2</source>
        <translation>；它的 PID %1 仍在 GPU %2 上运行</translation>
    </message>
    <message>
        <source>Its processes ignore the kubelet: end them, then remove the pod.</source>
        <translation>它的进程不理会 kubelet：先结束这些进程，再移除 Pod。</translation>
    </message>
    <message>
        <source>The node was not sampled: whether its containers still run is not known, so gpudesk will not force the deletion.</source>
        <translation>该节点未被采样：无法得知其容器是否仍在运行，因此 gpudesk 不会强制删除。</translation>
    </message>
    <message>
        <source>the API (node condition Ready)</source>
        <translation>API（节点状况 Ready）</translation>
    </message>
    <message numerus="yes">
        <source>holds %n GPU(s) on %1, NotReady for %2</source>
        <translation>
            <numerusform>在 %1 上占用 %n 块 GPU，该节点已 NotReady %2</numerusform>
        </translation>
    </message>
    <message>
        <source>The node is NotReady: its kubelet cannot confirm a graceful delete.</source>
        <translation>节点为 NotReady：其 kubelet 无法确认正常删除。</translation>
    </message>
    <message numerus="yes">
        <source>%1 %2 is %3, but this pod still runs and holds %n GPU(s)</source>
        <translation>
            <numerusform>%1 %2 已是 %3 状态，但此 Pod 仍在运行并占用 %n 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>Its job is over: the pod has nothing left to do.</source>
        <translation>其作业已结束：这个 Pod 已无事可做。</translation>
    </message>
    <message>
        <source>gpudesk&apos;s samples since %1</source>
        <translation>自 %1 起 gpudesk 的采样</translation>
    </message>
    <message>
        <source>Prometheus (DCGM) and gpudesk&apos;s samples</source>
        <translation>Prometheus（DCGM）与 gpudesk 的采样</translation>
    </message>
    <message>
        <source>Prometheus (DCGM) since %1</source>
        <translation>自 %1 起的 Prometheus（DCGM）数据</translation>
    </message>
    <message>
        <source>; the pod is no older</source>
        <translation>；该 Pod 的创建时间不早于此</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) under %1 % utilization for %2</source>
        <translation>
            <numerusform>%n 块 GPU 利用率低于 %1% 已持续 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) allocated, no process on any GPU for %1</source>
        <translation>
            <numerusform>已分配 %n 块 GPU，但 %1 内没有任何 GPU 进程</numerusform>
        </translation>
    </message>
    <message>
        <source>Stops %1 %2 with all its pods.</source>
        <translation>停止 %1 %2 及其全部 Pod。</translation>
    </message>
    <message>
        <source>A bare pod: deleting it ends it.</source>
        <translation>裸 Pod：删除即可结束它。</translation>
    </message>
    <message>
        <source>Its %1 %2 would start another pod: scale the controller down instead.</source>
        <translation>其 %1 %2 会启动另一个 Pod：请改为缩容该控制器。</translation>
    </message>
    <message>
        <source>GPU process of no pod</source>
        <translation>无主 GPU 进程</translation>
    </message>
    <message>
        <source>Stuck Terminating</source>
        <translation>卡在 Terminating</translation>
    </message>
    <message>
        <source>Idle GPUs</source>
        <translation>闲置 GPU</translation>
    </message>
    <message>
        <source>Memory with no process</source>
        <translation>无进程占用显存</translation>
    </message>
    <message>
        <source>Finished job still holding GPUs</source>
        <translation>已结束作业仍占 GPU</translation>
    </message>
    <message>
        <source>On a NotReady node</source>
        <translation>位于 NotReady 节点</translation>
    </message>
    <message>
        <source>Process stuck in D state</source>
        <translation>进程卡在 D 状态</translation>
    </message>
    <message>
        <source>GPU %1: %2 MiB held with no process listed by nvidia-smi</source>
        <translation>GPU %1：占用 %2 MiB 显存，但 nvidia-smi 未列出任何进程</translation>
    </message>
    <message>
        <source>PID %1 on GPU %2, whose pod is gone, is in uninterruptible sleep (D): no signal can end it while it sleeps, not even KILL</source>
        <translation>GPU %2 上的 PID %1 所属的 Pod 已不存在，且处于不可中断睡眠（D）状态：睡眠期间任何信号都无法结束它，KILL 也不行</translation>
    </message>
    <message>
        <source>The node is NotReady but answers over SSH: end its processes, then remove the pod, which its kubelet cannot confirm.</source>
        <translation>节点为 NotReady，但 SSH 仍可连通：先结束其进程，再移除该 Pod（其 kubelet 无法确认删除）。</translation>
    </message>
    <message>
        <source>The node is NotReady and does not answer over SSH: once the pod is removed, check the node when it is back for processes left running.</source>
        <translation>节点为 NotReady，且 SSH 无响应：移除 Pod 后，待节点恢复时请检查是否仍有残留进程在运行。</translation>
    </message>
    <message>
        <source>; its Jupyter&apos;s kernels and terminals</source>
        <translation>；及其 Jupyter 的内核与终端</translation>
    </message>
    <message>
        <source>dev environment %1: </source>
        <translation>开发环境 %1：</translation>
    </message>
    <message>
        <source>; no Jupyter kernel or terminal in use since %1</source>
        <translation>；自 %1 起没有 Jupyter 内核或终端在使用</translation>
    </message>
    <message>
        <source>Stops the dev environment %1: its GPUs are freed, its home volume is kept, and its owner can start it again from the Dev environments page.</source>
        <translation>停止开发环境 %1：释放其 GPU，保留其主目录卷，其所有者可在“开发环境”页面重新启动它。</translation>
    </message>
    <message>
        <source>the node (the process&apos;s start time, /proc)</source>
        <translation>节点（进程启动时间，/proc）</translation>
    </message>
    <message>
        <source>; it started %1 ago</source>
        <translation>；该进程已运行 %1</translation>
    </message>
    <message>
        <source>the API (the job&apos;s state, lastTransitionTime)</source>
        <translation>API（作业状态的 lastTransitionTime）</translation>
    </message>
    <message>
        <source>expected &quot;%1&quot;</source>
        <translation>应为“%1”</translation>
    </message>
    <message>
        <source>unexpected &quot;%1&quot; after the value</source>
        <translation>值后面有多余的“%1”</translation>
    </message>
    <message>
        <source>expected a key</source>
        <translation>应为一个键</translation>
    </message>
    <message>
        <source>multi-line strings are not read</source>
        <translation>不读取多行字符串</translation>
    </message>
    <message>
        <source>the escape \%1 is not read</source>
        <translation>不读取转义 \%1</translation>
    </message>
    <message>
        <source>a string is not closed</source>
        <translation>字符串没有闭合</translation>
    </message>
    <message>
        <source>an array is not closed</source>
        <translation>数组没有闭合</translation>
    </message>
    <message>
        <source>expected &quot;,&quot; or &quot;]&quot;</source>
        <translation>应为“,”或“]”</translation>
    </message>
    <message>
        <source>expected a value</source>
        <translation>应为一个值</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a value gpudesk reads</source>
        <translation>“%1”不是 gpudesk 能读取的值</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is larger than 1 MiB; gpudesk did not read it.</source>
        <translation>%1 大于 1 MiB，gpudesk 没有读取它。</translation>
    </message>
    <message>
        <source>%1, line %2: %3. gpudesk used none of its registries.</source>
        <translation>%1 第 %2 行：%3。gpudesk 未使用其中任何镜像仓库。</translation>
    </message>
</context>
<context>
    <name>gpudesk::AlertCenter</name>
    <message numerus="yes">
        <source>%1: %2 holds %n GPU(s) that should be free</source>
        <translation>
            <numerusform>%1：%2 占用着 %n 张本应空闲的 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 — %3</source>
        <translation>%1：%2 — %3</translation>
    </message>
    <message numerus="yes">
        <source>%1 went NotReady %n time(s) in the last %2 minutes</source>
        <translation>
            <numerusform>%1 在最近 %2 分钟内 %n 次变为 NotReady</numerusform>
        </translation>
    </message>
    <message>
        <source>The API server of %1 has not answered since %2</source>
        <translation>%1 的 API 服务器自 %2 起没有应答</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n at once</source>
        <translation>
            <numerusform>%1：同时 %n 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Registry %1 has not answered since %2: %3 Pulls from it fail.</source>
        <translation>镜像仓库 %1 自 %2 起没有应答：%3 从它拉取镜像会失败。</translation>
    </message>
</context>
<context>
    <name>gpudesk::AlertRules</name>
    <message>
        <source>Node NotReady</source>
        <translation>节点 NotReady</translation>
    </message>
    <message>
        <source>Node flapping (NotReady again and again)</source>
        <translation>节点反复掉线（一再变为 NotReady）</translation>
    </message>
    <message>
        <source>Kubelet reports disk, memory or PID pressure</source>
        <translation>kubelet 报告磁盘、内存或 PID 压力</translation>
    </message>
    <message>
        <source>Node stopped answering over SSH</source>
        <translation>节点的 SSH 不再应答</translation>
    </message>
    <message>
        <source>Disk nearly full</source>
        <translation>磁盘将满</translation>
    </message>
    <message>
        <source>GPU too hot</source>
        <translation>GPU 过热</translation>
    </message>
    <message>
        <source>GPU with uncorrectable ECC errors</source>
        <translation>GPU 出现不可纠正的 ECC 错误</translation>
    </message>
    <message>
        <source>New zombie or idle GPUs (Cleanup findings)</source>
        <translation>新的僵尸或空闲 GPU（清理页的发现）</translation>
    </message>
    <message>
        <source>VC near its GPU capability</source>
        <translation>虚拟集群接近其 GPU 上限</translation>
    </message>
    <message>
        <source>User&apos;s GPU quota nearly used</source>
        <translation>用户的 GPU 配额将用完</translation>
    </message>
    <message>
        <source>API server not answering</source>
        <translation>API 服务器无应答</translation>
    </message>
    <message>
        <source>Registry not answering</source>
        <translation>镜像仓库无应答</translation>
    </message>
    <message>
        <source>NAS nearly full, or a folder on it too big or growing fast</source>
        <translation>NAS 将满，或其中某个文件夹过大或增长过快</translation>
    </message>
    <message>
        <source>Machine still reserved for a VIP job that is over</source>
        <translation>机器仍为已结束的 VIP 作业保留</translation>
    </message>
</context>
<context>
    <name>gpudesk::AlertTray</name>
    <message>
        <source>gpudesk keeps watching</source>
        <translation>gpudesk 仍在监视</translation>
    </message>
    <message>
        <source>Alerts still reach you here. Quit from this icon&apos;s menu.</source>
        <translation>告警仍会在这里提示你。要退出，请使用此图标的菜单。</translation>
    </message>
    <message numerus="yes">
        <source>gpudesk: %n alert(s) not acknowledged</source>
        <translation>
            <numerusform>gpudesk：%n 条告警未确认</numerusform>
        </translation>
    </message>
    <message>
        <source>gpudesk: no alert</source>
        <translation>gpudesk：没有告警</translation>
    </message>
    <message>
        <source>gpudesk: every alert acknowledged</source>
        <translation>gpudesk：所有告警均已确认</translation>
    </message>
    <message>
        <source>Show gpudesk</source>
        <translation>显示 gpudesk</translation>
    </message>
    <message>
        <source>No alert</source>
        <translation>没有告警</translation>
    </message>
    <message>
        <source>%1 (acknowledged)</source>
        <translation>%1（已确认）</translation>
    </message>
    <message numerus="yes">
        <source>and %n more on the Overview</source>
        <translation>
            <numerusform>另有 %n 条，见概览</numerusform>
        </translation>
    </message>
    <message>
        <source>Acknowledge all</source>
        <translation>全部确认</translation>
    </message>
    <message>
        <source>Keep watching when the window is closed</source>
        <translation>关闭窗口后继续监视</translation>
    </message>
    <message>
        <source>Quit gpudesk</source>
        <translation>退出 gpudesk</translation>
    </message>
</context>
<context>
    <name>gpudesk::AuditDialog</name>
    <message>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <source>Kept in %1</source>
        <translation>保存在 %1</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
</context>
<context>
    <name>gpudesk::AuditModel</name>
    <message numerus="yes">
        <source>started: %n step(s)</source>
        <translation>
            <numerusform>已开始：%n 个步骤</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelled: %1</source>
        <translation>已取消：%1</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>操作人</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>What</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
</context>
<context>
    <name>gpudesk::CleanupPage</name>
    <message>
        <source>Stop selected…</source>
        <translation>停止所选…</translation>
    </message>
    <message>
        <source>All findings</source>
        <translation>全部问题</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>Allocated GPUs under %1 % utilization at least this long are listed as idle</source>
        <translation>已分配且利用率低于 %1% 至少持续这么久的 GPU 会被列为闲置</translation>
    </message>
    <message>
        <source>Filter: node, pod, user, VC, evidence…</source>
        <translation>筛选：节点、Pod、用户、VC、证据…</translation>
    </message>
    <message>
        <source>Select all</source>
        <translation>全选</translation>
    </message>
    <message>
        <source>Idle for at least</source>
        <translation>闲置至少</translation>
    </message>
    <message>
        <source>Looking for what holds GPUs…</source>
        <translation>正在查找占用 GPU 的对象…</translation>
    </message>
    <message>
        <source>Nothing holds GPUs that should not.</source>
        <translation>没有不应占用 GPU 的对象。</translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s) hold %1 GPUs</source>
        <translation>
            <numerusform>%n 项问题占用 %1 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a finding to see its evidence.</source>
        <translation>选择一项问题以查看其证据。</translation>
    </message>
    <message>
        <source>Pod: %1/%2</source>
        <translation>Pod：%1/%2</translation>
    </message>
    <message>
        <source>Belongs to: %1 %2 (%3)</source>
        <translation>所属：%1 %2（%3）</translation>
    </message>
    <message>
        <source>status unknown</source>
        <translation>状态未知</translation>
    </message>
    <message>
        <source>Owner: %1 · VC %2</source>
        <translation>所有者：%1 · VC %2</translation>
    </message>
    <message>
        <source>Node: %1</source>
        <translation>节点：%1</translation>
    </message>
    <message>
        <source>Since: %1%2 (%3)</source>
        <translation>起始：%1%2（%3）</translation>
    </message>
    <message>
        <source>at least </source>
        <translation>至少 </translation>
    </message>
    <message>
        <source>PID %1 on GPU %2: %3, %4 MiB%5</source>
        <translation>GPU %2 上的 PID %1：%3，%4 MiB%5</translation>
    </message>
    <message>
        <source>, state %1</source>
        <translation>，状态 %1</translation>
    </message>
    <message>
        <source>Remedy: %1 — %2</source>
        <translation>处理方式：%1 —— %2</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>YAML</source>
        <translation>YAML</translation>
    </message>
    <message>
        <source>Drain %1…</source>
        <translation>排空 %1…</translation>
    </message>
</context>
<context>
    <name>gpudesk::CleanupRun</name>
    <message>
        <source>unknown finding class &quot;%1&quot; (known: %2)</source>
        <translation>未知的问题类别“%1”（已知：%2）</translation>
    </message>
    <message>
        <source>The kubeconfig has no context &quot;%1&quot;.</source>
        <translation>kubeconfig 中没有上下文“%1”。</translation>
    </message>
    <message>
        <source>Cannot connect.</source>
        <translation>无法连接。</translation>
    </message>
    <message>
        <source>Reading the cluster at %1…</source>
        <translation>正在读取位于 %1 的集群…</translation>
    </message>
    <message>
        <source>Cannot reach the API server %1: %2</source>
        <translation>无法连接 API 服务器 %1：%2</translation>
    </message>
    <message>
        <source>The cluster could not be read within %1 s.</source>
        <translation>%1 秒内无法读取集群。</translation>
    </message>
    <message>
        <source>Sampling the nodes over SSH…</source>
        <translation>正在通过 SSH 采样节点…</translation>
    </message>
    <message>
        <source>Looking for what holds GPUs…</source>
        <translation>正在查找占用 GPU 的对象…</translation>
    </message>
    <message>
        <source>idle-gpus: no Prometheus was given, so a pod counts as idle only for the %1 s gpudesk watched it</source>
        <translation>idle-gpus：未指定 Prometheus，因此 Pod 的闲置时长只能按 gpudesk 观察到的 %1 秒计算</translation>
    </message>
    <message>
        <source>idle-gpus: Prometheus could not be asked: %1</source>
        <translation>idle-gpus：无法查询 Prometheus：%1</translation>
    </message>
    <message numerus="yes">
        <source>Checking the plan with the server and the nodes (%n step(s))…</source>
        <translation>
            <numerusform>正在向服务器和节点核对计划（%n 个步骤）…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s); a plan of %1 step(s) freeing %2 GPUs.</source>
        <translation>
            <numerusform>%n 项问题；计划共 %1 个步骤，可释放 %2 块 GPU。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n step(s), %2 GPUs. Type %3 to run it: </source>
        <translation>
            <numerusform>%1 —— %n 个步骤，%2 块 GPU。输入 %3 以执行：</numerusform>
        </translation>
    </message>
    <message>
        <source>Not confirmed: nothing was done.</source>
        <translation>未确认：未执行任何操作。</translation>
    </message>
    <message>
        <source>Refusing to apply without --yes where nobody can confirm.</source>
        <translation>无人可确认时，不带 --yes 拒绝执行。</translation>
    </message>
    <message>
        <source>%1 of %2 steps</source>
        <translation>%1 / %2 个步骤</translation>
    </message>
    <message>
        <source>Not selected, and touched too:</source>
        <translation>未被选中、但同样会受影响的：</translation>
    </message>
    <message>
        <source>NAS %1: %2</source>
        <translation>NAS %1：%2</translation>
    </message>
    <message>
        <source>the NAS could not be walked</source>
        <translation>无法扫描 NAS</translation>
    </message>
    <message numerus="yes">
        <source>Asking the NAS about %n candidate(s)…</source>
        <translation>
            <numerusform>正在向 NAS 查询 %n 个候选项…</numerusform>
        </translation>
    </message>
    <message>
        <source>Walking the NAS (at the lowest CPU and IO priority)…</source>
        <translation>正在扫描 NAS（最低 CPU 与 IO 优先级）…</translation>
    </message>
    <message>
        <source>NAS: %1</source>
        <translation>NAS：%1</translation>
    </message>
    <message numerus="yes">
        <source>On the NAS: %n candidate(s).</source>
        <translation>
            <numerusform>NAS 上：%n 个候选项。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::ClusterStore</name>
    <message numerus="yes">
        <source>%n min</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <translation>
            <numerusform>%n 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n d</source>
        <translation>
            <numerusform>%n 天</numerusform>
        </translation>
    </message>
    <message>
        <source>Terminating for %1: its grace period of %2 s ended %3 ago and the node has not confirmed that its containers stopped.</source>
        <translation>已处于 Terminating 状态 %1：其 %2 秒的优雅终止期已于 %3 前结束，节点仍未确认其容器已停止。</translation>
    </message>
    <message>
        <source>Node %1 has been NotReady for %2: what this pod does now is not known.</source>
        <translation>节点 %1 已处于 NotReady 状态 %2：此 Pod 目前的实际状态未知。</translation>
    </message>
    <message>
        <source>Node %1 is NotReady: what this pod does now is not known.</source>
        <translation>节点 %1 处于 NotReady 状态：此 Pod 目前的实际状态未知。</translation>
    </message>
    <message>
        <source>No single node it may run on has %1 GPUs free (at most %2, on %3); as distributed training it fits now: %4 × %5 GPUs.</source>
        <translation>没有任何一个可调度的节点有 %1 张空闲 GPU（最多 %2 张，在 %3 上）；改为分布式训练即可立即运行：%4 × %5 张 GPU。</translation>
    </message>
    <message>
        <source>pod %1 failed: %2</source>
        <translation>Pod %1 失败：%2</translation>
    </message>
    <message>
        <source>pod %1 failed: %2 — %3</source>
        <translation>Pod %1 失败：%2 — %3</translation>
    </message>
    <message numerus="yes">
        <source>%n pod(s) of it still run: %1</source>
        <translation>
            <numerusform>其中仍有 %n 个 Pod 在运行：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Says %1, but %2, holding %n GPU(s): they are not free until those pods are stopped.</source>
        <translation>
            <numerusform>状态为 %1，但%2，占用 %n 块 GPU：这些 Pod 停止之前，GPU 不会释放。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Says Running, but %n pod(s) crash-loop (%1; restarted up to %2 times): the job makes no progress.</source>
        <translation>
            <numerusform>状态为 Running，但有 %n 个 Pod 在崩溃循环（%1；最多已重启 %2 次）：作业没有任何进展。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::ClusterSync</name>
    <message>
        <source>%1: retrying since %2 (%3)</source>
        <translation>%1：自 %2 起重试中（%3）</translation>
    </message>
    <message>
        <source>%1: syncing</source>
        <translation>%1：同步中</translation>
    </message>
    <message>
        <source>not served by this cluster (looked for %1)</source>
        <translation>此集群未提供（已查找 %1）</translation>
    </message>
    <message>
        <source>Cannot reach the API server since %1: %2</source>
        <translation>自 %1 起无法连接 API 服务器：%2</translation>
    </message>
</context>
<context>
    <name>gpudesk::CommandPalette</name>
    <message>
        <source>Go to</source>
        <translation>转到</translation>
    </message>
    <message>
        <source>A node, pod, job, user, VC or action…</source>
        <translation>节点、Pod、作业、用户、虚拟集群或操作……</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>Pod</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>VC</source>
        <comment>virtual cluster</comment>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>Nothing matches.</source>
        <translation>没有匹配项。</translation>
    </message>
    <message numerus="yes">
        <source>The first %1 of %n match(es): type more to narrow.</source>
        <translation>
            <numerusform>共 %n 个匹配，显示前 %1 个：继续输入以缩小范围。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es). Enter goes there; Esc closes.</source>
        <translation>
            <numerusform>%n 个匹配。回车转到，Esc 关闭。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::ConnectionState</name>
    <message>
        <source>The API server cannot be reached: %1</source>
        <translation>无法连接 API 服务器：%1</translation>
    </message>
    <message>
        <source>%1 cannot be watched: %2</source>
        <translation>无法监听 %1：%2</translation>
    </message>
    <message>
        <source>Connecting to %1… no figures yet.</source>
        <translation>正在连接 %1……尚无数据。</translation>
    </message>
    <message>
        <source>Not connected: %1</source>
        <translation>未连接：%1</translation>
    </message>
    <message>
        <source>Not connected to %1: %2</source>
        <translation>未连接到 %1：%2</translation>
    </message>
    <message>
        <source>Not connected to a cluster.</source>
        <translation>未连接到任何集群。</translation>
    </message>
</context>
<context>
    <name>gpudesk::CsvImportDialog</name>
    <message>
        <source>New users from a CSV file</source>
        <translation>从 CSV 文件创建用户</translation>
    </message>
    <message>
        <source>name,vc,gpus,cpu,memory,pods — one user a line</source>
        <translation>name,vc,gpus,cpu,memory,pods —— 每行一个用户</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <source>For cells left empty:</source>
        <translation>空白单元格的取值：</translation>
    </message>
    <message>
        <source>VC</source>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Plan…</source>
        <translation>生成计划…</translation>
    </message>
    <message>
        <source>Users from a CSV file</source>
        <translation>从 CSV 文件导入用户</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message numerus="yes">
        <source>%n user(s) ready to be created.</source>
        <translation>
            <numerusform>%n 个用户可以创建。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n user(s) ready; %1 line(s) with problems are left out (each says why).</source>
        <translation>
            <numerusform>%n 个用户可以创建；%1 行有问题，已排除（每行都注明了原因）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
</context>
<context>
    <name>gpudesk::DesktopNotifier</name>
    <message>
        <source>No session bus: desktop notifications are not available.</source>
        <translation>没有会话总线：无法使用桌面通知。</translation>
    </message>
    <message>
        <source>Show in gpudesk</source>
        <translation>在 gpudesk 中查看</translation>
    </message>
    <message>
        <source>The desktop&apos;s notification service did not take the notice: %1</source>
        <translation>桌面通知服务没有接受这条通知：%1</translation>
    </message>
</context>
<context>
    <name>gpudesk::DevEnvDialog</name>
    <message>
        <source>New dev environment</source>
        <translation>新建开发环境</translation>
    </message>
    <message>
        <source>lower-case letters, digits and &apos;-&apos;</source>
        <translation>小写字母、数字和“-”</translation>
    </message>
    <message>
        <source>/dev/shm, in memory: PyTorch DataLoader workers pass batches through it and crash with a bus error at the default 64 MiB</source>
        <translation>/dev/shm，位于内存中：PyTorch DataLoader 的工作进程通过它传递批数据，默认 64 MiB 时会因 bus error 崩溃</translation>
    </message>
    <message>
        <source>CLAIM:/path, … (NAS shares, group data)</source>
        <translation>CLAIM:/路径, …（NAS 共享、组数据）</translation>
    </message>
    <message>
        <source>The namespace&apos;s VC</source>
        <translation>命名空间所属的 VC</translation>
    </message>
    <message>
        <source>NAME=value, one a line</source>
        <translation>NAME=value，每行一个</translation>
    </message>
    <message>
        <source>The image serves %1 on port %2</source>
        <translation>镜像在端口 %2 上提供 %1</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Shared memory</source>
        <translation>共享内存</translation>
    </message>
    <message>
        <source>at</source>
        <translation>挂载于</translation>
    </message>
    <message>
        <source>Home volume</source>
        <translation>主目录卷</translation>
    </message>
    <message>
        <source>Other volumes</source>
        <translation>其他卷</translation>
    </message>
    <message>
        <source>VC</source>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>Services</source>
        <translation>服务</translation>
    </message>
    <message>
        <source>Plan…</source>
        <translation>生成计划…</translation>
    </message>
    <message>
        <source>Asking the registry for the image&apos;s size…</source>
        <translation>正在向镜像仓库查询镜像大小…</translation>
    </message>
    <message>
        <source>Size not known: %1</source>
        <translation>大小未知：%1</translation>
    </message>
    <message>
        <source>This image is %1 (compressed), over the %2 your admin set for a warning: pulling it onto a node takes long and fills its disk for everyone there.</source>
        <translation>此镜像大小为 %1（压缩后），超过了管理员设定的警告阈值 %2：将其拉取到节点上耗时很长，并会占满该节点上所有人共用的磁盘。</translation>
    </message>
    <message>
        <source>Image size: %1 (compressed)</source>
        <translation>镜像大小：%1（压缩后）</translation>
    </message>
</context>
<context>
    <name>gpudesk::DevEnvsModel</name>
    <message>
        <source>Ended.</source>
        <translation>已结束。</translation>
    </message>
    <message>
        <source>Stopped: its volume %1 (%2) is kept; Start makes it again.</source>
        <translation>已停止：其卷 %1（%2）已保留；“启动”可重新创建。</translation>
    </message>
    <message>
        <source>Stopping.</source>
        <translation>正在停止。</translation>
    </message>
    <message>
        <source>Waiting to be scheduled.</source>
        <translation>等待调度。</translation>
    </message>
    <message>
        <source>Starting on %1.</source>
        <translation>正在 %1 上启动。</translation>
    </message>
    <message numerus="yes">
        <source>%n MIG instance(s)</source>
        <translation>
            <numerusform>%n 个 MIG 实例</numerusform>
        </translation>
    </message>
    <message>
        <source>not scheduled</source>
        <translation>未调度</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>Services</source>
        <translation>服务</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>存在时长</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>its GPUs are in use</source>
        <translation>其 GPU 正在使用</translation>
    </message>
    <message>
        <source>GPUs under %1 %</source>
        <translation>GPU 利用率低于 %1 %</translation>
    </message>
    <message>
        <source>a Jupyter kernel is running</source>
        <translation>有 Jupyter 内核正在运行</translation>
    </message>
    <message>
        <source>no Jupyter kernel or terminal in use</source>
        <translation>没有 Jupyter 内核或终端在使用</translation>
    </message>
    <message>
        <source>in use</source>
        <translation>使用中</translation>
    </message>
    <message numerus="yes">
        <source>Idle for %1 (%2): Stop gives back its %n GPU(s) and keeps its home volume.</source>
        <translation>
            <numerusform>已空闲 %1（%2）：停止后归还其 %n 张 GPU，并保留主目录卷。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (for %2)</source>
        <translation>%1（已持续 %2）</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Idle since %1: %2.</source>
        <translation>自 %1 起空闲：%2。</translation>
    </message>
    <message>
        <source>In use: %1.</source>
        <translation>使用中：%1。</translation>
    </message>
    <message>
        <source>Jupyter could not be asked: %1</source>
        <translation>无法询问 Jupyter：%1</translation>
    </message>
    <message>
        <source>Jupyter at %1: %2, %3, last active %4.</source>
        <translation>Jupyter（%1 时）：%2，%3，最近活动于 %4。</translation>
    </message>
    <message numerus="yes">
        <source>%n kernel(s)</source>
        <translation>
            <numerusform>%n 个内核</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n terminal(s)</source>
        <translation>
            <numerusform>%n 个终端</numerusform>
        </translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>GPU use</source>
        <translation>GPU 使用率</translation>
    </message>
    <message>
        <source>Idle for</source>
        <translation>空闲时长</translation>
    </message>
    <message>
        <source>%1 does not answer: %2</source>
        <translation>%1 没有应答：%2</translation>
    </message>
    <message>
        <source>Waiting for %1 to answer: %2</source>
        <translation>正在等待 %1 应答：%2</translation>
    </message>
</context>
<context>
    <name>gpudesk::DevEnvsPage</name>
    <message>
        <source>New environment…</source>
        <translation>新建环境…</translation>
    </message>
    <message>
        <source>Jupyter</source>
        <translation>Jupyter</translation>
    </message>
    <message>
        <source>Terminal</source>
        <translation>终端</translation>
    </message>
    <message>
        <source>VS Code</source>
        <translation>VS Code</translation>
    </message>
    <message>
        <source>Open in browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Stop…</source>
        <translation>停止…</translation>
    </message>
    <message>
        <source>Start…</source>
        <translation>启动…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Filter: environment, owner, image, node…</source>
        <translation>筛选：环境、所有者、镜像、节点…</translation>
    </message>
    <message>
        <source>No other web service</source>
        <translation>没有其他 Web 服务</translation>
    </message>
    <message>
        <source>Started %1.</source>
        <translation>已启动%1。</translation>
    </message>
    <message>
        <source>Jupyter of %1 opens in your browser at 127.0.0.1:%2.</source>
        <translation>%1 的 Jupyter 正在浏览器中打开，地址 127.0.0.1:%2。</translation>
    </message>
    <message>
        <source>%1 of %2 opens in your browser at %3.</source>
        <translation>%2 的 %1 正在浏览器中打开，地址 %3。</translation>
    </message>
    <message>
        <source>Stopped environments could not be read: %1</source>
        <translation>无法读取已停止的环境：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n running, %1 starting or waiting, %2 stopped · %3 GPUs held</source>
        <translation>
            <numerusform>%n 个运行中，%1 个启动中或等待中，%2 个已停止 · 占用 %3 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>you may not %1 %2</source>
        <translation>你无权 %1 %2</translation>
    </message>
    <message>
        <source>Not allowed: %1</source>
        <translation>不允许：%1</translation>
    </message>
    <message>
        <source>A new environment: image, GPUs, memory, shared memory, volumes</source>
        <translation>新建环境：镜像、GPU、内存、共享内存、卷</translation>
    </message>
    <message>
        <source>Open JupyterLab in your browser, through a tunnel that follows the pod</source>
        <translation>通过跟随 Pod 的隧道在浏览器中打开 JupyterLab</translation>
    </message>
    <message>
        <source>This environment serves no Jupyter</source>
        <translation>此环境不提供 Jupyter</translation>
    </message>
    <message>
        <source>A terminal with ssh into the environment</source>
        <translation>打开终端，通过 ssh 进入环境</translation>
    </message>
    <message>
        <source>VS Code with Remote-SSH into the environment</source>
        <translation>用 VS Code 的 Remote-SSH 进入环境</translation>
    </message>
    <message>
        <source>code-server, TensorBoard: a web service of the environment</source>
        <translation>code-server、TensorBoard：环境中的 Web 服务</translation>
    </message>
    <message>
        <source>Delete the pod and free its GPUs; the home volume stays</source>
        <translation>删除 Pod 并释放其 GPU；主目录卷保留</translation>
    </message>
    <message>
        <source>Make the environment again with its home volume</source>
        <translation>用其主目录卷重新创建环境</translation>
    </message>
    <message>
        <source>Delete the environment and its home volume</source>
        <translation>删除环境及其主目录卷</translation>
    </message>
    <message>
        <source>Let VS Code find the environment</source>
        <translation>让 VS Code 找到环境</translation>
    </message>
    <message>
        <source>VS Code reads hosts from %1 only. Add the line “Include %2” at its top, so that it finds the environments gpudesk writes there?</source>
        <translation>VS Code 只从 %1 读取主机。要在其开头加入一行“Include %2”，以便它找到 gpudesk 写在那里的环境吗？</translation>
    </message>
    <message>
        <source>TensorBoard on a log folder…</source>
        <translation>在日志目录上启动 TensorBoard…</translation>
    </message>
    <message>
        <source>TensorBoard</source>
        <translation>TensorBoard</translation>
    </message>
    <message>
        <source>The folder TensorBoard reads, in the environment (relative to its home):</source>
        <translation>TensorBoard 读取的目录（在环境中，相对于主目录）：</translation>
    </message>
    <message numerus="yes">
        <source>%n environment(s) idle for over %1 hold %2 GPU(s): stop what you do not use, so that others can have them (home volumes are kept).</source>
        <translation>
            <numerusform>%n 个环境空闲超过 %1，占用 %2 张 GPU：请停止不用的环境，让其他人可以使用这些 GPU（主目录卷会保留）。</numerusform>
        </translation>
    </message>
    <message>
        <source>A terminal with a shell in the environment over the API&apos;s exec (its image runs no SSH server)</source>
        <translation>通过 API 的 exec 在环境中打开终端 shell（其镜像未运行 SSH 服务器）</translation>
    </message>
    <message>
        <source>Save as image…</source>
        <translation>保存为镜像…</translation>
    </message>
    <message>
        <source>Commit the environment&apos;s container on its node and push it to a registry: a new environment can start from it</source>
        <translation>在节点上提交该环境的容器并推送到镜像仓库：之后可以用它创建新环境</translation>
    </message>
    <message>
        <source>Reading %1 in the registry…</source>
        <translation>正在镜像仓库中读取 %1…</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 未保存：%2</translation>
    </message>
    <message>
        <source>gpudesk reaches no node over SSH for this context (node telemetry is off)</source>
        <translation>gpudesk 在此上下文中无法通过 SSH 连接任何节点（节点遥测已关闭）</translation>
    </message>
</context>
<context>
    <name>gpudesk::DevEnvsService</name>
    <message>
        <source>The environment is not there any more.</source>
        <translation>该环境已不存在。</translation>
    </message>
    <message>
        <source>%1 has no port named jupyter: its image does not offer Jupyter.</source>
        <translation>%1 没有名为 jupyter 的端口：其镜像不提供 Jupyter。</translation>
    </message>
    <message>
        <source>Looking for the Jupyter server in %1…</source>
        <translation>正在 %1 中查找 Jupyter 服务器…</translation>
    </message>
    <message>
        <source>`jupyter server list` ended with exit code %1 in %2.</source>
        <translation>`jupyter server list` 在 %2 中以退出码 %1 结束。</translation>
    </message>
    <message>
        <source>Jupyter in %1 is on 127.0.0.1:%2.</source>
        <translation>%1 中的 Jupyter 位于 127.0.0.1:%2。</translation>
    </message>
    <message>
        <source>%1 has no port named %2: its image does not offer it.</source>
        <translation>%1 没有名为 %2 的端口：其镜像不提供该服务。</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>%1 has no port named ssh: its image does not run an SSH server. Use a shell through exec instead.</source>
        <translation>%1 没有名为 ssh 的端口：其镜像不运行 SSH 服务器。请改用通过 exec 的 shell。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not installed here. Run it yourself: %2</source>
        <translation>本机未安装 %1。请自行运行：%2</translation>
    </message>
    <message>
        <source>%1 did not start. Run it yourself: %2</source>
        <translation>%1 未能启动。请自行运行：%2</translation>
    </message>
    <message>
        <source>a terminal running %1</source>
        <translation>运行 %1 的终端</translation>
    </message>
    <message>
        <source>VS Code on %1</source>
        <translation>连接 %1 的 VS Code</translation>
    </message>
    <message>
        <source>Name the folder TensorBoard reads its logs from.</source>
        <translation>请指定 TensorBoard 读取日志的目录。</translation>
    </message>
    <message>
        <source>a terminal with a shell in %1</source>
        <translation>一个在 %1 中运行 shell 的终端</translation>
    </message>
    <message>
        <source>Still starting in %1…</source>
        <translation>仍在 %1 中启动…</translation>
    </message>
    <message>
        <source>&quot;%1&quot; holds a line break or another control character: gpudesk does not write it into an SSH configuration.</source>
        <translation>“%1”含有换行符或其他控制字符：gpudesk 不会把它写入 SSH 配置。</translation>
    </message>
    <message>
        <source>No terminal program was found (%1). Run this in a terminal: %2</source>
        <translation>找不到终端程序（%1）。请在终端中运行：%2</translation>
    </message>
    <message>
        <source>No ssh: %1 — opening a shell over the Kubernetes API instead.</source>
        <translation>无法通过 ssh 连接：%1——改为通过 Kubernetes API 打开 shell。</translation>
    </message>
</context>
<context>
    <name>gpudesk::DevPodResolver</name>
    <message>
        <source>No pod of environment %1 is running yet.</source>
        <translation>环境 %1 还没有正在运行的 Pod。</translation>
    </message>
    <message>
        <source>There is no environment or pod %1 in %2.</source>
        <translation>%2 中没有名为 %1 的环境或 Pod。</translation>
    </message>
    <message>
        <source>Pod %1 is not running.</source>
        <translation>Pod %1 未在运行。</translation>
    </message>
</context>
<context>
    <name>gpudesk::DiagnosisService</name>
    <message>
        <source>Cannot read the pod: %1</source>
        <translation>无法读取该 Pod：%1</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>its events could not be read: %1</source>
        <translation>无法读取它的事件：%1</translation>
    </message>
    <message>
        <source>the log of %1 could not be read: %2</source>
        <translation>无法读取 %1 的日志：%2</translation>
    </message>
    <message>
        <source>No known cause: no rule matches its state, events or log.</source>
        <translation>未找到已知原因：没有规则与它的状态、事件或日志匹配。</translation>
    </message>
    <message>
        <source>No known cause; %1.</source>
        <translation>未找到已知原因；%1。</translation>
    </message>
    <message>
        <source>%1 is busy or not connected over SSH</source>
        <translation>%1 正忙或未通过 SSH 连接</translation>
    </message>
    <message>
        <source>the kernel log of %1 could not be read: %2</source>
        <translation>无法读取 %1 的内核日志：%2</translation>
    </message>
    <message>
        <source>It runs; nothing says it runs slower than it should (the start of its log read, its nodes and its variables).</source>
        <translation>正在运行；没有发现它比应有的更慢（已读取日志开头、所在节点和环境变量）。</translation>
    </message>
    <message>
        <source>It runs; %1.</source>
        <translation>正在运行；%1。</translation>
    </message>
    <message>
        <source>the NAS could not be asked about %1: %2</source>
        <translation>无法向 NAS 查询 %1：%2</translation>
    </message>
    <message>
        <source>it did not answer within %1 s</source>
        <translation>它在 %1 秒内没有回应</translation>
    </message>
</context>
<context>
    <name>gpudesk::DiagnosisView</name>
    <message>
        <source>the platform (its administrators)</source>
        <translation>平台（其管理员）</translation>
    </message>
    <message>
        <source>the hardware (the node&apos;s administrators)</source>
        <translation>硬件（该节点的管理员）</translation>
    </message>
    <message>
        <source>the job (its owner)</source>
        <translation>作业（其所有者）</translation>
    </message>
    <message>
        <source>log of %1 (the previous container)</source>
        <translation>%1 的日志（上一个容器）</translation>
    </message>
    <message>
        <source>log of %1</source>
        <translation>%1 的日志</translation>
    </message>
    <message>
        <source>event %1</source>
        <translation>事件 %1</translation>
    </message>
    <message>
        <source>Diagnose again</source>
        <translation>重新诊断</translation>
    </message>
    <message>
        <source>Read the pods&apos; state, events and log tails again</source>
        <translation>重新读取这些 Pod 的状态、事件和日志末尾</translation>
    </message>
    <message>
        <source>Also:</source>
        <translation>另外：</translation>
    </message>
    <message>
        <source>Evidence:</source>
        <translation>证据：</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>修复：</translation>
    </message>
    <message>
        <source>Likely responsible: %1.</source>
        <translation>可能的责任方：%1。</translation>
    </message>
    <message>
        <source>Running it again may help.</source>
        <translation>重新运行可能会成功。</translation>
    </message>
    <message>
        <source>Running it again unchanged will fail the same way.</source>
        <translation>不做修改重新运行会以同样的方式失败。</translation>
    </message>
    <message>
        <source>This object has no pods to diagnose.</source>
        <translation>该对象没有可诊断的 Pod。</translation>
    </message>
    <message numerus="yes">
        <source>Reading the state, events and log tails of %n pod(s)…</source>
        <translation>
            <numerusform>正在读取 %n 个 Pod 的状态、事件和日志末尾…</numerusform>
        </translation>
    </message>
    <message>
        <source>The doctor found no known cause.</source>
        <translation>作业诊断没有找到已知原因。</translation>
    </message>
    <message>
        <source>What the job doctor found, the most likely cause first.</source>
        <translation>作业诊断的结果，最可能的原因在前。</translation>
    </message>
    <message>
        <source>Re-run with the fix…</source>
        <translation>修复后重新运行…</translation>
    </message>
    <message>
        <source>Asking why it waits…</source>
        <translation>正在查明它为何等待…</translation>
    </message>
    <message>
        <source>Why it waits</source>
        <translation>为何等待</translation>
    </message>
    <message>
        <source>By the cluster as it is now, it fits: %1 The scheduler should place it at its next pass.</source>
        <translation>按集群当前状态，它放得下：%1 调度器应会在下一轮把它调度上去。</translation>
    </message>
    <message>
        <source>Why it waits, from the cluster as it is now (the same check as before a job is submitted).</source>
        <translation>按集群当前状态说明它为何等待（与提交作业前的检查相同）。</translation>
    </message>
    <message>
        <source>By its pod group&apos;s totals it would fit now; its pods are not made yet, so where they would go is not known.</source>
        <translation>按其 PodGroup 的总量现在放得下；它的 Pod 还没创建，具体会放到哪里尚不可知。</translation>
    </message>
    <message>
        <source>The job&apos;s state is not what its pods do (below); in the pods the doctor found no known cause of a failure.</source>
        <translation>作业的状态与其 Pod 的实际情况不符（见下）；在这些 Pod 中，作业诊断未发现已知的失败原因。</translation>
    </message>
    <message>
        <source>%1 is cordoned: no new job lands on it.</source>
        <translation>%1 已被封锁（cordon）：不会有新作业调度到它上面。</translation>
    </message>
    <message>
        <source>Cordon %1 so that no new job lands on it…</source>
        <translation>封锁（cordon）%1，使新作业不再调度到它上面…</translation>
    </message>
    <message>
        <source>kernel log of %1</source>
        <translation>%1 的内核日志</translation>
    </message>
    <message>
        <source>nvidia-smi on %1</source>
        <translation>%1 上的 nvidia-smi</translation>
    </message>
    <message>
        <source>Preempted for another job</source>
        <translation>被抢占，让位于其他作业</translation>
    </message>
    <message>
        <source>pod %1/%2 — the scheduler said: %3</source>
        <translation>Pod %1/%2 —— 调度器的说明：%3</translation>
    </message>
    <message numerus="yes">
        <source>and %n earlier preemption(s)</source>
        <translation>
            <numerusform>以及更早的 %n 次抢占</numerusform>
        </translation>
    </message>
    <message>
        <source>Save checkpoints often, so that a preemption loses little. Jobs of lower priority in a queue are the first to go when a job of higher priority needs the room: urgent work can ask for a higher priority class, and a queue&apos;s guaranteed share is not reclaimed.</source>
        <translation>经常保存检查点，被抢占时损失就小。当更高优先级的作业需要资源时，队列中优先级较低的作业最先被驱逐：紧急作业可以申请更高的优先级类，队列的保障份额不会被回收。</translation>
    </message>
    <message>
        <source>Running it again unchanged will run the same way.</source>
        <translation>不做修改重新运行，结果仍会一样。</translation>
    </message>
    <message>
        <source>the job&apos;s nodes, each with InfiniBand or RoCE</source>
        <translation>作业所在节点（均有 InfiniBand 或 RoCE）</translation>
    </message>
    <message>
        <source>a variable of the spec</source>
        <translation>规格中的环境变量</translation>
    </message>
    <message>
        <source>It still runs: stop it once the copy is made, or the copy waits for its GPUs (or holds as many more).</source>
        <translation>原作业仍在运行：副本创建后请停止它，否则副本要等它的 GPU（或再占用同样多的 GPU）。</translation>
    </message>
    <message>
        <source>the NAS, read now</source>
        <translation>NAS（刚刚读取）</translation>
    </message>
    <message>
        <source>It still holds its GPUs while it crash-loops: stop it once the copy is made, or the copy waits for them (or holds as many more).</source>
        <translation>它在反复崩溃重启时仍占着 GPU：副本创建后请停止它，否则副本要等这些 GPU（或再占用同样多的 GPU）。</translation>
    </message>
</context>
<context>
    <name>gpudesk::DockerCredentials</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is larger than %2 MiB; gpudesk did not read it.</source>
        <translation>%1 大于 %2 MiB，gpudesk 未读取它。</translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2</source>
        <translation>%1 不是有效的 JSON：%2</translation>
    </message>
    <message>
        <source>%1 names the credential helper &quot;%2&quot;, which is not a helper&apos;s name.</source>
        <translation>%1 指定的凭据助手“%2”不是助手的名称。</translation>
    </message>
    <message>
        <source>%1 asks for the credential helper %2, which is not installed (not on PATH).</source>
        <translation>%1 要求使用凭据助手 %2，但它未安装（不在 PATH 中）。</translation>
    </message>
    <message>
        <source>The credential helper %1 did not answer within %2 s.</source>
        <translation>凭据助手 %1 在 %2 秒内没有应答。</translation>
    </message>
    <message>
        <source>Cannot run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <source>The credential helper %1 sent more than %2 KiB; gpudesk stopped it.</source>
        <translation>凭据助手 %1 输出超过 %2 KiB，gpudesk 已终止它。</translation>
    </message>
    <message>
        <source>The credential helper %1 failed (exit %2): %3</source>
        <translation>凭据助手 %1 失败（退出码 %2）：%3</translation>
    </message>
    <message>
        <source>The credential helper %1 answered something that is not JSON.</source>
        <translation>凭据助手 %1 的回答不是 JSON。</translation>
    </message>
</context>
<context>
    <name>gpudesk::DoctorRules</name>
    <message>
        <source>longer than %1 characters</source>
        <translation>长于 %1 个字符</translation>
    </message>
    <message>
        <source>a repeated group with a repeat inside (such as (a+)+) can take for ever on a long line</source>
        <translation>重复的分组内又含重复（如 (a+)+），遇到长行可能永远算不完</translation>
    </message>
    <message>
        <source>back references are not allowed</source>
        <translation>不允许反向引用</translation>
    </message>
    <message>
        <source>more than two unbounded wildcards (.* or .+)</source>
        <translation>无界通配符（.* 或 .+）多于两个</translation>
    </message>
    <message>
        <source>%1: not a rules file (%2 at byte %3); none of its rules is used.</source>
        <translation>%1：不是规则文件（第 %3 字节处 %2）；其中的规则都不使用。</translation>
    </message>
    <message>
        <source>%1, rule %2</source>
        <translation>%1，规则 %2</translation>
    </message>
    <message>
        <source>%1: a rule needs an id and a class; left out.</source>
        <translation>%1：规则需要 id 和 class；已略过。</translation>
    </message>
    <message>
        <source>%1: the pattern &quot;%2&quot; is refused: %3; the rule is left out.</source>
        <translation>%1：模式“%2”被拒绝：%3；该规则已略过。</translation>
    </message>
    <message>
        <source>%1: the pattern &quot;%2&quot; is not valid: %3 at %4; the rule is left out.</source>
        <translation>%1：模式“%2”无效：位置 %4 处 %3；该规则已略过。</translation>
    </message>
    <message>
        <source>%1: has no title; left out.</source>
        <translation>%1：没有 title；已略过。</translation>
    </message>
    <message>
        <source>%1 cannot be read or is over 1 MiB; only the built-in rules are used.</source>
        <translation>%1 无法读取或超过 1 MiB；只使用内置规则。</translation>
    </message>
    <message>
        <source>%1, class %2: has no title; its rules&apos; own titles are shown for it.</source>
        <translation>%1，类别 %2：没有标题；将显示其规则自身的标题。</translation>
    </message>
    <message>
        <source>%1: &quot;nodeEccUncorrected&quot; is true or &quot;ownCards&quot;; left out.</source>
        <translation>%1：“nodeEccUncorrected” 只能是 true 或 “ownCards”；已略去。</translation>
    </message>
    <message>
        <source>%1: matches nothing (no criterion in &quot;match&quot;); left out.</source>
        <translation>%1：不匹配任何内容（“match” 中没有条件）；已略去。</translation>
    </message>
    <message>
        <source>%1: &quot;specFix&quot; %2 is not one gpudesk can make (%3); left out.</source>
        <translation>%1：“specFix” %2 不是 gpudesk 能做的修改（%3）；已略去。</translation>
    </message>
    <message>
        <source>%1: &quot;nas&quot; %2 is not a code the NAS check gives (%3); left out.</source>
        <translation>%1：“nas” %2 不是 NAS 检查给出的代码（%3）；已忽略。</translation>
    </message>
</context>
<context>
    <name>gpudesk::EventsModel</name>
    <message>
        <source>Last seen</source>
        <translation>最近发生</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Count</source>
        <comment>how many times an event happened</comment>
        <translation>次数</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message numerus="yes">
        <source>First seen %1, last seen %2, %n time(s).</source>
        <translation>
            <numerusform>首次 %1，最近 %2，共 %n 次。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::EventsPage</name>
    <message>
        <source>Filter events: reason, object, message, namespace…</source>
        <translation>筛选事件：原因、对象、消息、命名空间…</translation>
    </message>
    <message>
        <source>Warnings only</source>
        <translation>仅警告</translation>
    </message>
</context>
<context>
    <name>gpudesk::ExecCredentialRunner</name>
    <message>
        <source>The credential plugin %1 of %2 could not be started: %3</source>
        <translation>%2 的凭据插件 %1 无法启动：%3</translation>
    </message>
    <message>
        <source>user &quot;%1&quot; in %2</source>
        <translation>%2 中的用户“%1”</translation>
    </message>
    <message>
        <source>The credential plugin %1 of %2 needs an interactive terminal (interactiveMode: Always); gpudesk cannot give it one. Run it once in a terminal, or set interactiveMode to IfAvailable.</source>
        <translation>%2 的凭据插件 %1 需要交互式终端（interactiveMode: Always），gpudesk 无法提供。请先在终端中运行一次，或将 interactiveMode 设为 IfAvailable。</translation>
    </message>
    <message>
        <source>The credential plugin %1 of %2 was not found on PATH.</source>
        <translation>在 PATH 中找不到 %2 的凭据插件 %1。</translation>
    </message>
    <message>
        <source>The credential plugin %1 of %2 gave no answer within %3 s.</source>
        <translation>%2 的凭据插件 %1 在 %3 秒内没有响应。</translation>
    </message>
    <message>
        <source>The credential plugin %1 of %2 failed (exit code %3).</source>
        <translation>%2 的凭据插件 %1 执行失败（退出码 %3）。</translation>
    </message>
    <message>
        <source>The credential plugin %1 of %2 crashed.</source>
        <translation>%2 的凭据插件 %1 崩溃了。</translation>
    </message>
    <message>
        <source>The credential plugin %1 of %2 printed no usable credential: %3</source>
        <translation>%2 的凭据插件 %1 没有输出可用的凭据：%3</translation>
    </message>
    <message>
        <source>its output is not JSON</source>
        <translation>其输出不是 JSON</translation>
    </message>
    <message>
        <source>its output is not an ExecCredential</source>
        <translation>其输出不是 ExecCredential</translation>
    </message>
    <message>
        <source>it answered apiVersion &quot;%1&quot; to a request for &quot;%2&quot;</source>
        <translation>请求的是“%2”，它却返回了 apiVersion“%1”</translation>
    </message>
    <message>
        <source>it has no status</source>
        <translation>缺少 status</translation>
    </message>
    <message>
        <source>status has neither a token nor clientCertificateData</source>
        <translation>status 中既没有 token 也没有 clientCertificateData</translation>
    </message>
    <message>
        <source>status has only one of clientCertificateData and clientKeyData</source>
        <translation>status 中 clientCertificateData 与 clientKeyData 只有其一</translation>
    </message>
    <message>
        <source>expirationTimestamp &quot;%1&quot; is not an RFC 3339 time</source>
        <translation>expirationTimestamp“%1”不是 RFC 3339 时间</translation>
    </message>
    <message>
        <source>The credential plugin %1 of %2 printed more than %3 KiB, which no credential needs: stopped it.</source>
        <translation>%2 的凭据插件 %1 输出超过 %3 KiB，任何凭据都不需要这么多：已将其停止。</translation>
    </message>
</context>
<context>
    <name>gpudesk::ExecTerminal</name>
    <message>
        <source>--exec takes CONTEXT/NAMESPACE/ENVIRONMENT, not &quot;%1&quot;</source>
        <translation>--exec 的参数应为 CONTEXT/NAMESPACE/ENVIRONMENT，而不是“%1”</translation>
    </message>
    <message>
        <source>gpudesk: a shell in %1 (%2/%3); exit or Ctrl-D leaves it.</source>
        <translation>gpudesk：%1（%2/%3）中的 shell；输入 exit 或按 Ctrl-D 退出。</translation>
    </message>
</context>
<context>
    <name>gpudesk::FindingsModel</name>
    <message>
        <source>None by gpudesk</source>
        <translation>gpudesk 不处理</translation>
    </message>
    <message>
        <source>Kill the processes</source>
        <translation>结束进程</translation>
    </message>
    <message>
        <source>Delete the pod</source>
        <translation>删除 Pod</translation>
    </message>
    <message>
        <source>Force-delete the pod</source>
        <translation>强制删除 Pod</translation>
    </message>
    <message>
        <source>Kill its processes, then force-delete it</source>
        <translation>结束其进程后强制删除</translation>
    </message>
    <message>
        <source>Stop the job</source>
        <translation>停止作业</translation>
    </message>
    <message>
        <source>Cordon and drain the node</source>
        <translation>封锁并排空节点</translation>
    </message>
    <message>
        <source>PID %1</source>
        <translation>PID %1</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message numerus="yes">
        <source>%n MIG</source>
        <translation>
            <numerusform>%n 个 MIG</numerusform>
        </translation>
    </message>
    <message>
        <source>Since %1 (%2)</source>
        <translation>自 %1 起（%2）</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Pod / process</source>
        <translation>Pod / 进程</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>VC</source>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>For</source>
        <translation>持续</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Remedy</source>
        <translation>处理方式</translation>
    </message>
    <message>
        <source>Stop the dev environment (volume kept)</source>
        <translation>停止开发环境（保留卷）</translation>
    </message>
</context>
<context>
    <name>gpudesk::FindingsService</name>
    <message>
        <source>found by gpudesk</source>
        <translation>由 gpudesk 发现</translation>
    </message>
</context>
<context>
    <name>gpudesk::FormChoices</name>
    <message>
        <source>Any model</source>
        <translation>任意型号</translation>
    </message>
    <message>
        <source>%1 (%2 free now)</source>
        <translation>%1（当前空闲 %2 块）</translation>
    </message>
</context>
<context>
    <name>gpudesk::FreeGpus</name>
    <message>
        <source>Your account sees only the pods of namespace %1, so which GPUs are free is not known.</source>
        <translation>你的账号只能看到命名空间 %1 的 Pod，因此无法得知哪些 GPU 空闲。</translation>
    </message>
    <message numerus="yes">
        <source>At most %n GPU(s) can be free; the largest single-node job that could fit takes at most %1.</source>
        <translation>
            <numerusform>最多 %n 张 GPU 可能空闲；单节点可容纳的最大任务最多 %1 卡。</numerusform>
        </translation>
    </message>
    <message>
        <source>Every GPU is in use by what you can see.</source>
        <translation>从你能看到的信息来看，所有 GPU 都在使用中。</translation>
    </message>
    <message>
        <source>No GPU is free.</source>
        <translation>没有空闲 GPU。</translation>
    </message>
    <message>
        <source>%1 free on %2</source>
        <translation>%2 上空闲 %1 张</translation>
    </message>
    <message>
        <source>%1 free on each of %2 nodes</source>
        <translation>%2 个节点各空闲 %1 张</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) free: %1. The largest single-node job that fits now takes %2.</source>
        <translation>
            <numerusform>空闲 GPU %n 张：%1。当前能放下的最大单节点作业为 %2 卡。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::GpuMapPage</name>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>unavailable (node not ready or cordoned)</source>
        <translation>不可用（节点未就绪或已封锁）</translation>
    </message>
    <message>
        <source>phantom memory</source>
        <translation>幽灵显存</translation>
    </message>
    <message>
        <source>process of no pod</source>
        <translation>无归属 Pod 的进程</translation>
    </message>
    <message>
        <source>in use by a pod not visible to you</source>
        <translation>被你看不到的 Pod 占用</translation>
    </message>
    <message>
        <source>allocated, in its user&apos;s colour; the bar: live utilization</source>
        <translation>已分配，以其用户的颜色显示；竖条：实时利用率</translation>
    </message>
    <message>
        <source>not known</source>
        <translation>未知</translation>
    </message>
    <message numerus="yes">
        <source>+%n more</source>
        <translation>
            <numerusform>另有 %n 位</numerusform>
        </translation>
    </message>
    <message>
        <source>GPUs by user:</source>
        <translation>各用户的 GPU：</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Ctrl+wheel on the map zooms too</source>
        <translation>在图上按住 Ctrl 滚动滚轮也可缩放</translation>
    </message>
    <message>
        <source>Group by:</source>
        <translation>分组：</translation>
    </message>
    <message>
        <source>Zoom:</source>
        <translation>缩放：</translation>
    </message>
    <message>
        <source>Nothing</source>
        <translation>不分组</translation>
    </message>
    <message>
        <source>GPU model</source>
        <translation>GPU 型号</translation>
    </message>
</context>
<context>
    <name>gpudesk::GpuMapView</name>
    <message>
        <source>GPU slot %1</source>
        <translation>GPU 槽位 %1</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>not schedulable (node not ready or cordoned)</source>
        <translation>不可调度（节点未就绪或已封锁）</translation>
    </message>
    <message numerus="yes">
        <source>pod %1/%2&lt;br&gt;user %3, VC %4, %n GPU(s)</source>
        <translation>
            <numerusform>Pod %1/%2&lt;br&gt;用户 %3，虚拟集群 %4，%n 张 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>PID %1: %2/%3 (%4)</source>
        <translation>PID %1：%2/%3（%4）</translation>
    </message>
    <message>
        <source>PID %1: no live pod (%2)</source>
        <translation>PID %1：没有存活的 Pod（%2）</translation>
    </message>
    <message>
        <source>host process</source>
        <translation>宿主机进程</translation>
    </message>
    <message>
        <source>pod %1 is gone</source>
        <translation>Pod %1 已不存在</translation>
    </message>
    <message>
        <source>utilization %1 %, memory %2 of %3 MiB</source>
        <translation>利用率 %1 %，显存 %2 / %3 MiB</translation>
    </message>
    <message>
        <source>Phantom: memory is held but no process is listed.</source>
        <translation>幽灵显存：显存被占用，但没有列出任何进程。</translation>
    </message>
    <message>
        <source>A process here belongs to no live pod.</source>
        <translation>这张卡上有进程不属于任何存活的 Pod。</translation>
    </message>
    <message>
        <source>in use by a pod not visible to you</source>
        <translation>被你看不到的 Pod 占用</translation>
    </message>
    <message>
        <source>not known: your account cannot see other users&apos; pods</source>
        <translation>未知：你的账号看不到其他用户的 Pod</translation>
    </message>
    <message>
        <source>PID %1: pod not visible to you</source>
        <translation>PID %1：所属 Pod 对你不可见</translation>
    </message>
    <message>
        <source>MIG %1 (GPU %2, device %3)</source>
        <translation>MIG %1（GPU %2，设备 %3）</translation>
    </message>
    <message>
        <source>MIG %1</source>
        <translation>MIG %1</translation>
    </message>
    <message>
        <source>memory %1 of %2 MiB</source>
        <translation>显存 %1 / %2 MiB</translation>
    </message>
    <message>
        <source>(no %1 label)</source>
        <translation>（无 %1 标签）</translation>
    </message>
    <message>
        <source>(no GPU)</source>
        <translation>（无 GPU）</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s), %1 of %2 GPUs free</source>
        <translation>
            <numerusform>%n 个节点，%2 张 GPU 中 %1 张空闲</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::GpuUseChart</name>
    <message>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <source>Last 6 hours</source>
        <translation>最近 6 小时</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>GPUs in the cluster</source>
        <translation>集群 GPU 总数</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Busy (≥ 5 % utilization)</source>
        <translation>繁忙（利用率 ≥ 5 %）</translation>
    </message>
    <message>
        <source>Sampled every %1 s while gpudesk runs: the first sample comes once the cluster is listed.</source>
        <translation>gpudesk 运行期间每 %1 秒采样一次：集群列出后即有第一个样本。</translation>
    </message>
    <message>
        <source>Busy needs node telemetry (SSH); only allocation is drawn.</source>
        <translation>繁忙需要节点遥测（SSH）；此处只画出分配情况。</translation>
    </message>
    <message>
        <source>Now %1 of %2 GPUs allocated, %3 busy: %4 allocated and idle.</source>
        <translation>当前 %2 张 GPU 中已分配 %1 张，繁忙 %3 张：%4 张已分配但空闲。</translation>
    </message>
    <message>
        <source>Sampled since %1, while gpudesk runs.</source>
        <translation>自 %1 起采样（gpudesk 运行期间）。</translation>
    </message>
    <message>
        <source>Allocation is a lower bound (your account sees only some pods).</source>
        <translation>分配数为下限（你的账号只能看到部分 Pod）。</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>Now %1 of %2 GPUs allocated; busy is not sampled now (no node telemetry).</source>
        <translation>当前 %2 张 GPU 中已分配 %1 张；当前未采集忙碌情况（没有节点遥测）。</translation>
    </message>
    <message>
        <source>History from Prometheus (DCGM-exporter: cards reporting, held by a pod, busy).</source>
        <translation>历史数据来自 Prometheus（DCGM-exporter：上报的卡、被 Pod 占用的卡、忙碌的卡）。</translation>
    </message>
    <message>
        <source>Prometheus: %1</source>
        <translation>Prometheus：%1</translation>
    </message>
</context>
<context>
    <name>gpudesk::HarborClient</name>
    <message>
        <source>Harbor at %1 sent too much, or too slowly, for %2.</source>
        <translation>位于 %1 的 Harbor 对 %2 的响应过大或过慢。</translation>
    </message>
    <message>
        <source>Harbor at %1 cannot be reached: %2</source>
        <translation>无法连接位于 %1 的 Harbor：%2</translation>
    </message>
    <message>
        <source>Harbor at %1 did not take the login of %2.</source>
        <translation>位于 %1 的 Harbor 不接受 %2 的登录。</translation>
    </message>
    <message>
        <source>an anonymous user</source>
        <translation>匿名用户</translation>
    </message>
    <message>
        <source>Harbor at %1 does not allow %2 to do this: %3</source>
        <translation>位于 %1 的 Harbor 不允许 %2 执行此操作：%3</translation>
    </message>
    <message>
        <source>Harbor at %1 answered %2 to %3: %4</source>
        <translation>位于 %1 的 Harbor 对 %3 返回了 %2：%4</translation>
    </message>
    <message>
        <source>Harbor refused to delete %1@%2: a tag of it is immutable (%3).</source>
        <translation>Harbor 拒绝删除 %1@%2：它的某个标签不可变（%3）。</translation>
    </message>
    <message>
        <source>Harbor is running a garbage collection already; wait for it to end.</source>
        <translation>Harbor 已在进行垃圾回收，请等待其结束。</translation>
    </message>
    <message>
        <source>Harbor started a garbage collection but did not say which.</source>
        <translation>Harbor 已启动垃圾回收，但未告知是哪一个任务。</translation>
    </message>
    <message>
        <source>Harbor&apos;s answer names no garbage collection run.</source>
        <translation>Harbor 的响应中没有垃圾回收任务。</translation>
    </message>
    <message>
        <source>Harbor at %1 sent more than %2 pages for %3; gpudesk stopped there.</source>
        <translation>%1 上的 Harbor 为 %3 返回了超过 %2 页；gpudesk 已在此停止。</translation>
    </message>
</context>
<context>
    <name>gpudesk::HarborGcStep</name>
    <message>
        <source>Harbor&apos;s job %1 is still %2 after %3; it goes on in Harbor.</source>
        <translation>Harbor 任务 %1 在 %3 后仍为 %2；它会在 Harbor 中继续运行。</translation>
    </message>
    <message>
        <source>Harbor&apos;s garbage collection (job %1): %2, %3</source>
        <translation>Harbor 垃圾回收（任务 %1）：%2，%3</translation>
    </message>
    <message>
        <source>This registry has no Harbor.</source>
        <translation>此镜像仓库没有 Harbor。</translation>
    </message>
    <message>
        <source>Harbor&apos;s dry run ended %1.</source>
        <translation>Harbor 的试运行以 %1 结束。</translation>
    </message>
    <message numerus="yes">
        <source>Harbor&apos;s dry run: %n blob(s) to delete, about %1 to free</source>
        <translation>
            <numerusform>Harbor 试运行：将删除 %n 个数据块，约可释放 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Harbor&apos;s dry run ended well; its log does not say how much it would free</source>
        <translation>Harbor 试运行顺利结束；其日志未说明可释放多少空间</translation>
    </message>
    <message>
        <source>Harbor&apos;s job %1 ended %2.</source>
        <translation>Harbor 任务 %1 以 %2 结束。</translation>
    </message>
    <message>
        <source>Harbor&apos;s garbage collection ended</source>
        <translation>Harbor 垃圾回收已结束</translation>
    </message>
    <message>
        <source>its log does not say what it freed</source>
        <translation>其日志未说明释放了多少空间</translation>
    </message>
    <message numerus="yes">
        <source>freed %1 (%n blob(s)), by Harbor&apos;s log</source>
        <translation>
            <numerusform>据 Harbor 日志，已释放 %1（%n 个数据块）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::HarborPanel</name>
    <message>
        <source>Garbage collection…</source>
        <translation>垃圾回收…</translation>
    </message>
    <message>
        <source>Plan Harbor&apos;s garbage collection: checking the plan runs Harbor&apos;s dry run, which says what it could free; the run gives the space back and its log says how much.</source>
        <translation>规划 Harbor 垃圾回收：检查计划时会运行 Harbor 的试运行，告诉你可释放多少；正式运行会归还空间，并由其日志说明释放了多少。</translation>
    </message>
    <message>
        <source>The registry read last is no Harbor: a docker-registry&apos;s operator runs its garbage collection on the registry&apos;s host.</source>
        <translation>最近读取的镜像仓库不是 Harbor：docker-registry 的垃圾回收需由其运维人员在镜像仓库主机上执行。</translation>
    </message>
    <message>
        <source>%1 %2 of %3 (%4 %)</source>
        <translation>%1 %2 / %3（%4 %）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Harbor %1&lt;/b&gt; — projects: %2</source>
        <translation>&lt;b&gt;Harbor %1&lt;/b&gt; —— 项目：%2</translation>
    </message>
    <message>
        <source>none visible to this login</source>
        <translation>此登录看不到任何项目</translation>
    </message>
    <message numerus="yes">
        <source>%n untagged artifact(s) (%1): no tag names them; garbage collection can delete them.</source>
        <translation>
            <numerusform>%n 个无标签制品（%1）：没有标签指向它们；垃圾回收可以删除它们。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete the %n untagged first</source>
        <translation>
            <numerusform>先删除 %n 个无标签制品</numerusform>
        </translation>
    </message>
    <message>
        <source>Not while the registry is being read.</source>
        <translation>读取镜像仓库期间不可执行。</translation>
    </message>
</context>
<context>
    <name>gpudesk::HarborReader</name>
    <message>
        <source>Reading Harbor&apos;s records was cancelled.</source>
        <translation>读取 Harbor 记录已取消。</translation>
    </message>
    <message>
        <source>Asking Harbor %1 for its projects…</source>
        <translation>正在向 Harbor %1 查询项目…</translation>
    </message>
    <message>
        <source>Asking Harbor for push and pull times: %1 of %2 repositories</source>
        <translation>正在向 Harbor 查询推送与拉取时间：第 %1 / %2 个仓库</translation>
    </message>
</context>
<context>
    <name>gpudesk::HistoryService</name>
    <message>
        <source>No Prometheus is configured.</source>
        <translation>未配置 Prometheus。</translation>
    </message>
    <message>
        <source>Prometheus has no DCGM series for this node.</source>
        <translation>Prometheus 中没有该节点的 DCGM 数据。</translation>
    </message>
    <message>
        <source>Prometheus has no node-exporter series for this node (instance %1).</source>
        <translation>Prometheus 中没有该节点的 node-exporter 数据（instance 为 %1）。</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
</context>
<context>
    <name>gpudesk::HostKeysDialog</name>
    <message>
        <source>Unknown host keys</source>
        <translation>未知的主机密钥</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Key type</source>
        <translation>密钥类型</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>指纹</translation>
    </message>
    <message>
        <source>Tick the keys you have checked against the nodes&apos; real keys. gpudesk connects to no node you leave unticked.</source>
        <translation>请勾选已与节点真实密钥核对过的密钥。未勾选的节点，gpudesk 不会连接。</translation>
    </message>
    <message>
        <source>Tick all</source>
        <translation>全部勾选</translation>
    </message>
    <message>
        <source>Trust ticked once</source>
        <translation>仅本次信任已勾选的</translation>
    </message>
    <message>
        <source>Trust ticked and remember</source>
        <translation>信任已勾选的并记住</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Host key</source>
        <translation>主机密钥</translation>
    </message>
</context>
<context>
    <name>gpudesk::ImageCheck</name>
    <message>
        <source>%1 was not looked up in its registry: %2</source>
        <translation>未在镜像仓库中查询 %1：%2</translation>
    </message>
    <message>
        <source>%1 is in %2 (%3 to pull).</source>
        <translation>%1 在 %2 中（需拉取 %3）。</translation>
    </message>
    <message>
        <source>%1 is in %2.</source>
        <translation>%1 在 %2 中。</translation>
    </message>
    <message>
        <source>%1 is %2: each node pulls all of it before the pod starts, minutes on a node that has not run it yet.</source>
        <translation>%1 大小为 %2：每个节点在 Pod 启动前都要完整拉取，未运行过它的节点需要几分钟。</translation>
    </message>
    <message>
        <source>Keep data and checkpoints on the NAS, not in the image; a slimmer base image pulls faster.</source>
        <translation>数据和检查点请放在 NAS 上，不要放进镜像；更精简的基础镜像拉取更快。</translation>
    </message>
    <message>
        <source>%1 has no %2:%3: every pod would stay in ImagePullBackOff.</source>
        <translation>%1 中没有 %2:%3：所有 Pod 都会停在 ImagePullBackOff。</translation>
    </message>
    <message>
        <source>Push the image first, or pick a tag the registry has (the Images page lists them).</source>
        <translation>请先推送镜像，或选择仓库中已有的标签（“镜像”页面列出了这些标签）。</translation>
    </message>
    <message>
        <source>%1 refused gpudesk&apos;s credentials for %2 (%3): the nodes pull with the namespace&apos;s image pull secrets, which may be let in; not checked.</source>
        <translation>%1 拒绝了 gpudesk 访问 %2 的凭据（%3）：节点使用命名空间的镜像拉取密钥拉取，可能可以通过；未检查。</translation>
    </message>
    <message>
        <source>Log in to the registry on the Images page to check it, or make sure the namespace has a pull secret for it.</source>
        <translation>请在“镜像”页面登录该仓库以便检查，或确认命名空间有对应的拉取密钥。</translation>
    </message>
    <message>
        <source>%1 has an SSH server (%2): mpirun on the launcher can reach the workers.</source>
        <translation>%1 含有 SSH 服务器（%2）：launcher 上的 mpirun 可以连到各 worker。</translation>
    </message>
    <message>
        <source>%1 has no SSH server (%2): mpirun on the launcher starts its daemons on the workers over SSH, so the launch would fail (&quot;ORTE was unable to reliably start one or more daemons&quot;).</source>
        <translation>%1 没有 SSH 服务器（%2）：launcher 上的 mpirun 通过 SSH 在各 worker 上启动守护进程，因此启动会失败（“ORTE was unable to reliably start one or more daemons”）。</translation>
    </message>
    <message>
        <source>Run the workers on an image with OpenSSH&apos;s server installed (apt-get install -y openssh-server; the MPI operator&apos;s own base images have it).</source>
        <translation>让 worker 使用装有 OpenSSH 服务器的镜像（apt-get install -y openssh-server；MPI operator 自带的基础镜像已包含）。</translation>
    </message>
    <message>
        <source>Whether %1 has an SSH server (the MPI workers need one) was not checked: %2</source>
        <translation>未检查 %1 是否含有 SSH 服务器（MPI 的 worker 需要）：%2</translation>
    </message>
</context>
<context>
    <name>gpudesk::ImagePlanner</name>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1:%2 is run by %n pod(s) now: %3.</source>
        <translation>
            <numerusform>%1:%2 目前有 %n 个 Pod 在运行：%3。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not deleted: deleting an image in use needs your explicit override.</source>
        <translation>未删除：删除正在使用的镜像需要您明确确认。</translation>
    </message>
    <message>
        <source>They keep running, but cannot start again on another node, restart after their node pulls it out, or scale.</source>
        <translation>这些 Pod 会继续运行，但无法在其他节点上重新启动、在节点清除镜像后重启，也无法扩容。</translation>
    </message>
    <message>
        <source>Delete the untagged image %1@%2</source>
        <translation>删除无标签镜像 %1@%2</translation>
    </message>
    <message>
        <source>Delete %1 (%2): tags %3</source>
        <translation>删除 %1（%2）：标签 %3</translation>
    </message>
    <message>
        <source>chosen on the Images page</source>
        <translation>在“镜像”页面中选择</translation>
    </message>
    <message>
        <source>%1:%2 also goes: %3 name the same image (digest %4), and a registry deletes images, not tags.</source>
        <translation>%1:%2 之外 %3 也会被删除：它们指向同一镜像（摘要 %4），而仓库删除的是镜像，不是标签。</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n image(s) from %1</source>
        <translation>
            <numerusform>从 %1 删除 %n 个镜像</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing to delete: the selection names no image the registry listed.</source>
        <translation>没有可删除的内容：所选项中没有仓库列出的镜像。</translation>
    </message>
    <message>
        <source>Frees at least %1 — not now: a registry gives space back only when its garbage collection runs.</source>
        <translation>至少释放 %1 —— 但不是现在：仓库只有在执行垃圾回收时才会归还空间。</translation>
    </message>
    <message>
        <source>Frees at most %1 (not all of the registry was read) — not now: a registry gives space back only when its garbage collection runs.</source>
        <translation>至多释放 %1（未读取整个仓库）—— 但不是现在：仓库只有在执行垃圾回收时才会归还空间。</translation>
    </message>
    <message>
        <source>On a docker-registry (distribution), its operator runs this with the registry stopped or read-only: %1</source>
        <translation>对于 docker-registry（distribution），其管理员需在仓库停止或只读时运行：%1</translation>
    </message>
    <message>
        <source>Copy %1:%2 to %3:%4</source>
        <translation>将 %1:%2 复制为 %3:%4</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a repository name: lower-case letters, digits and separators (. _ -), in parts joined by /.</source>
        <translation>“%1”不是有效的仓库名：只能包含小写字母、数字和分隔符（. _ -），各部分用 / 连接。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a tag: up to 128 letters, digits, &apos;_&apos;, &apos;.&apos; and &apos;-&apos;, not starting with &apos;.&apos; or &apos;-&apos;.</source>
        <translation>“%1”不是有效的标签：最多 128 个字母、数字、“_”“.”和“-”，且不能以“.”或“-”开头。</translation>
    </message>
    <message>
        <source>%1:%2 already names this image.</source>
        <translation>%1:%2 已指向此镜像。</translation>
    </message>
    <message>
        <source>%1:%2 exists and names another image (%3): it will name this one instead. Whoever pulls it by tag gets the new one.</source>
        <translation>%1:%2 已存在且指向另一个镜像（%3）：它将改为指向此镜像。按标签拉取的人会得到新镜像。</translation>
    </message>
    <message>
        <source>Not all of the registry was read: if %1:%2 exists, the copy is skipped rather than replace it.</source>
        <translation>未读取整个仓库：如果 %1:%2 已存在，将跳过复制而不是替换它。</translation>
    </message>
    <message>
        <source>Copy %1:%2 (%3) to %4:%5</source>
        <translation>将 %1:%2（%3）复制为 %4:%5</translation>
    </message>
    <message>
        <source>Nothing is uploaded: the registry links the blobs it already has. Ready to use afterwards as %1/%2:%3.</source>
        <translation>不会上传任何数据：仓库直接关联已有的数据块。完成后可作为 %1/%2:%3 使用。</translation>
    </message>
    <message>
        <source>Frees nothing: every blob of it is used by other images too.</source>
        <translation>不会释放任何空间：它的每个数据块也被其他镜像使用。</translation>
    </message>
    <message>
        <source>%1:%2 is a platform of %3, a multi-platform image: deleting it would break that image. Not deleted.</source>
        <translation>%1:%2 是多平台镜像 %3 的一个平台：删除它会损坏那个镜像。未删除。</translation>
    </message>
    <message numerus="yes">
        <source>%1 is a multi-platform index: its %n platform manifest(s) stay, untagged; garbage collection frees their blobs only once nothing else uses them.</source>
        <translation>
            <numerusform>%1 是多平台索引：其 %n 个平台清单会以无标签状态保留；只有当没有其他镜像使用时，垃圾回收才会释放它们的数据块。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1:%2 is immutable in Harbor (a rule of its project): Harbor refuses to delete it. Not deleted.</source>
        <translation>%1:%2 在 Harbor 中不可变（其项目的规则）：Harbor 会拒绝删除。未删除。</translation>
    </message>
    <message>
        <source>This registry is a Harbor: once the images are deleted, Tools › Harbor garbage collection… runs its garbage collection (its dry run first) and shows what it freed.</source>
        <translation>此镜像仓库是 Harbor：删除镜像后，可通过“工具 › Harbor 垃圾回收…”运行其垃圾回收（先试运行），并显示释放了多少空间。</translation>
    </message>
    <message numerus="yes">
        <source>Run Harbor&apos;s garbage collection on %1, deleting %n untagged artifact(s) first</source>
        <translation>
            <numerusform>在 %1 上运行 Harbor 垃圾回收，先删除 %n 个无标签制品</numerusform>
        </translation>
    </message>
    <message>
        <source>Run Harbor&apos;s garbage collection on %1</source>
        <translation>在 %1 上运行 Harbor 垃圾回收</translation>
    </message>
    <message>
        <source>%1 is no Harbor (or was not read yet): its operator gives space back with the registry stopped or read-only: %2</source>
        <translation>%1 不是 Harbor（或尚未读取）：需由其运维人员在镜像仓库停止或只读时归还空间：%2</translation>
    </message>
    <message>
        <source>Delete the untagged artifacts, then collect garbage in Harbor %1</source>
        <translation>删除无标签制品，然后在 Harbor %1 中进行垃圾回收</translation>
    </message>
    <message>
        <source>Collect garbage in Harbor %1</source>
        <translation>在 Harbor %1 中进行垃圾回收</translation>
    </message>
    <message>
        <source>Checking this plan runs Harbor&apos;s dry run, which deletes nothing and says what the run could free.</source>
        <translation>检查此计划会运行 Harbor 的试运行：它不删除任何内容，只说明正式运行可释放多少。</translation>
    </message>
    <message>
        <source>Pods run untagged artifacts by digest: %1. Deleting them would keep those pods from starting again; run the garbage collection without deleting untagged artifacts.</source>
        <translation>有 Pod 按摘要运行无标签制品：%1。删除它们会使这些 Pod 无法再次启动；请在不删除无标签制品的情况下运行垃圾回收。</translation>
    </message>
    <message numerus="yes">
        <source>%n untagged artifact(s) go for good (%1, at most %2 between them): %3.</source>
        <translation>
            <numerusform>%n 个无标签制品将被永久删除（%1，合计最多 %2）：%3。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is seen in pods but was not read from the registry: nothing is known to delete. Not deleted.</source>
        <translation>%1 在 Pod 中运行，但未从镜像仓库读到：不知道要删除什么。未删除。</translation>
    </message>
    <message>
        <source>%1:%2 is seen in pods but was not read from the registry: there is nothing known to copy.</source>
        <translation>%1:%2 在 Pod 中运行，但未从镜像仓库读到：没有已知内容可复制。</translation>
    </message>
</context>
<context>
    <name>gpudesk::ImagesModel</name>
    <message>
        <source>Over %1: slow to pull onto a node, and it fills the node&apos;s disk.</source>
        <translation>超过 %1：拉取到节点很慢，而且会占满节点磁盘。</translation>
    </message>
    <message>
        <source>Config and layers as stored (compressed), counted once.</source>
        <translation>按存储计算的配置与各层（压缩后），每份只计一次。</translation>
    </message>
    <message>
        <source>Bytes no other image of this registry uses: what deleting this digest could give back, once garbage collection runs.</source>
        <translation>本仓库中没有其他镜像使用的字节：删除这个摘要后、垃圾回收运行时最多能释放的空间。</translation>
    </message>
    <message>
        <source>At most this much: the registry has not been read whole, and an image not read yet may share these layers.</source>
        <translation>最多这么多：镜像仓库尚未完整读取，尚未读取的镜像可能共用这些层。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 (%2; by tag: its node did not say the digest)</source>
        <translation>%1（%2；按标签匹配：其节点未报告摘要）</translation>
    </message>
    <message>
        <source>no user</source>
        <translation>无用户</translation>
    </message>
    <message numerus="yes">
        <source>%n pod(s)</source>
        <translation>
            <numerusform>%n 个 Pod</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pod(s): %1</source>
        <translation>
            <numerusform>%n 个 Pod：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Repository</source>
        <translation>仓库</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Platforms</source>
        <translation>平台</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Unique</source>
        <translation>独占</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>已创建</translation>
    </message>
    <message>
        <source>In use by</source>
        <translation>使用者</translation>
    </message>
    <message>
        <source>Digest</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Immutable in Harbor: it cannot be deleted or pushed over.</source>
        <translation>在 Harbor 中不可变：不能删除，也不能被覆盖推送。</translation>
    </message>
    <message>
        <source>Only Harbor records pushes and pulls; this registry does not.</source>
        <translation>只有 Harbor 会记录推送和拉取；此镜像仓库不记录。</translation>
    </message>
    <message>
        <source>The last pull of this digest by any tag (Harbor&apos;s record; reads by gpudesk itself are left out).</source>
        <translation>按任意标签最近一次拉取此摘要的时间（Harbor 的记录；不含 gpudesk 自身的读取）。</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>Pushed</source>
        <translation>推送时间</translation>
    </message>
    <message>
        <source>Last pulled</source>
        <translation>最近拉取</translation>
    </message>
    <message>
        <source>%1 (immutable)</source>
        <translation>%1（不可变）</translation>
    </message>
    <message>
        <source>A pod runs this image, but the registry, read whole, does not have this tag (deleted, or pulled from elsewhere).</source>
        <translation>有 Pod 在运行此镜像，但完整读取后镜像仓库中没有这个标签（已删除，或是从别处拉取的）。</translation>
    </message>
    <message>
        <source>A pod runs this image; the registry has not given it (yet): its size, platforms and date are not known.</source>
        <translation>有 Pod 在运行此镜像；镜像仓库（尚）未返回它：大小、平台和日期未知。</translation>
    </message>
    <message>
        <source>not in this registry</source>
        <translation>不在此镜像仓库中</translation>
    </message>
    <message>
        <source>not read from the registry</source>
        <translation>未从镜像仓库读取</translation>
    </message>
</context>
<context>
    <name>gpudesk::ImagesPage</name>
    <message>
        <source>Add registry…</source>
        <translation>添加镜像仓库…</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Registries the cluster&apos;s pods pull from, and those you added</source>
        <translation>集群中 Pod 拉取镜像的仓库，以及您添加的仓库</translation>
    </message>
    <message>
        <source>Filter repositories, tags, digests…</source>
        <translation>筛选仓库、标签、摘要…</translation>
    </message>
    <message>
        <source>Read every repository and tag of the registry again</source>
        <translation>重新读取该镜像仓库的全部仓库和标签</translation>
    </message>
    <message>
        <source>Registry:</source>
        <translation>镜像仓库：</translation>
    </message>
    <message>
        <source>Add registry</source>
        <translation>添加镜像仓库</translation>
    </message>
    <message>
        <source>Read whole: %1 repositories, %2 tags.</source>
        <translation>已完整读取：%1 个仓库，%2 个标签。</translation>
    </message>
    <message>
        <source>Incomplete — what is shown is part of the registry (unique bytes are upper bounds): %1</source>
        <translation>不完整——显示的只是镜像仓库的一部分（独占字节为上限）：%1</translation>
    </message>
    <message>
        <source>%1 is reached over plain HTTP: anyone on the network can read its images and your password, and change what you pull.</source>
        <translation>%1 通过明文 HTTP 访问：网络上的任何人都能读取其镜像和您的密码，并篡改您拉取的内容。</translation>
    </message>
    <message>
        <source>Select an image to see its reference, platforms, other tags and the pods that run it.</source>
        <translation>选择一个镜像，查看其引用、平台、其他标签以及运行它的 Pod。</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>%1 — %2 repositories, %3 tags, %4 stored</source>
        <translation>%1 —— %2 个仓库，%3 个标签，存储 %4</translation>
    </message>
    <message>
        <source>Size %1 (config and layers, compressed); %2 %3 used by no other image.</source>
        <translation>大小 %1（配置与各层，压缩后）；其中%2 %3 不被其他镜像使用。</translation>
    </message>
    <message>
        <source>at most</source>
        <translation>最多</translation>
    </message>
    <message>
        <source>The same digest is tagged %1: deleting the image takes every one of them.</source>
        <translation>同一摘要带有标签 %1：删除该镜像会一并删除所有这些标签。</translation>
    </message>
    <message>
        <source>attestation (provenance, SBOM)</source>
        <translation>证明（来源、SBOM）</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s), %1</source>
        <translation>
            <numerusform>%n 层，%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Platforms:</source>
        <translation>平台：</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s)</source>
        <translation>
            <numerusform>%n 层</numerusform>
        </translation>
    </message>
    <message>
        <source>No pod of the cluster runs it now.</source>
        <translation>集群中目前没有 Pod 运行它。</translation>
    </message>
    <message>
        <source>no user</source>
        <translation>无用户</translation>
    </message>
    <message>
        <source> (by tag)</source>
        <translation>（按标签匹配）</translation>
    </message>
    <message>
        <source>Run now by:</source>
        <translation>当前运行者：</translation>
    </message>
    <message>
        <source>Registry address, as in image names (host or host:port). Write http:// in front only for a registry without TLS.</source>
        <translation>镜像仓库地址，与镜像名中的写法相同（主机或 主机:端口）。仅当仓库没有 TLS 时才在前面写 http://。</translation>
    </message>
    <message>
        <source>Share…</source>
        <translation>共享…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Copy the selected image under another name in the same registry (a colleague&apos;s or a shared project): nothing is uploaded</source>
        <translation>在同一仓库中以另一个名称复制所选镜像（同事的或共享的项目）：不会上传任何数据</translation>
    </message>
    <message>
        <source>Delete the selected images from the registry, with a plan first: every tag of the same digest, the pods that run them, and what garbage collection will free</source>
        <translation>从仓库删除所选镜像，先给出计划：同一摘要的所有标签、运行它们的 Pod，以及垃圾回收将释放的空间</translation>
    </message>
    <message>
        <source>Read the registry first: its credentials are found as it is read.</source>
        <translation>请先读取仓库：读取时才会找到它的凭据。</translation>
    </message>
    <message>
        <source>Share image</source>
        <translation>共享镜像</translation>
    </message>
    <message>
        <source>Copy %1:%2 in %3 to (repository:tag):</source>
        <translation>将 %3 中的 %1:%2 复制为（仓库:标签）：</translation>
    </message>
    <message>
        <source>Images in use</source>
        <translation>正在使用的镜像</translation>
    </message>
    <message>
        <source>Pods run some of the selected images now. They keep running, but cannot start again on another node, restart after their node pulls it out, or scale.</source>
        <translation>所选镜像中有一些正被 Pod 运行。这些 Pod 会继续运行，但无法在其他节点上重新启动、在节点清除镜像后重启，也无法扩容。</translation>
    </message>
    <message>
        <source>Plan deleting them anyway</source>
        <translation>仍然计划删除它们</translation>
    </message>
    <message>
        <source>Leave those out</source>
        <translation>排除这些镜像</translation>
    </message>
    <message>
        <source>Cleanup candidates: unused, built over</source>
        <translation>清理候选：未使用，构建于</translation>
    </message>
    <message>
        <source>Images no pod runs now, built more than this long ago (when they were last pulled, a plain registry does not know). Select them (Ctrl+A) and Delete… to see the plan.</source>
        <translation>当前没有 Pod 运行、且构建时间早于此的镜像（普通仓库不知道镜像最后一次被拉取的时间）。选中它们（Ctrl+A）并点击“删除…”查看计划。</translation>
    </message>
    <message>
        <source> days ago</source>
        <translation> 天前</translation>
    </message>
    <message>
        <source>Not read yet: Read lists every repository and tag of the registry chosen, with what each costs and who runs it.</source>
        <translation>尚未读取：点击“读取”列出所选镜像仓库的全部仓库和标签，以及各自的大小和使用者。</translation>
    </message>
    <message>
        <source>Copy reference</source>
        <translation>复制引用</translation>
    </message>
    <message>
        <source>The login to %1 is kept in the system keychain.</source>
        <translation>%1 的登录信息已保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>The login to %1 could not be kept in the system keychain (it is used until gpudesk quits): %2</source>
        <translation>%1 的登录信息无法保存到系统钥匙串（在 gpudesk 退出前仍会使用）：%2</translation>
    </message>
    <message>
        <source>Cleanup candidates: unused, not pulled for</source>
        <translation>清理候选：未使用且未拉取已超过</translation>
    </message>
    <message>
        <source>Images no pod runs now that Harbor has not seen pulled for this long (pushed this long ago, when never pulled). Select them (Ctrl+A) and Delete… to see the plan.</source>
        <translation>当前没有 Pod 运行、且 Harbor 在这段时间内没有看到被拉取的镜像（从未拉取的，则按推送时间）。选中它们（Ctrl+A）后点“删除…”查看计划。</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>Users who left</source>
        <translation>已离开的用户</translation>
    </message>
    <message>
        <source>Only on a Harbor: images in its private projects none of whose members is a user of the cluster now.</source>
        <translation>仅适用于 Harbor：其私有项目中、成员里已没有任何当前集群用户的镜像。</translation>
    </message>
    <message>
        <source>No Harbor project is left without a user of the cluster among its members.</source>
        <translation>没有哪个 Harbor 项目的成员中已不含集群用户。</translation>
    </message>
    <message>
        <source>Projects none of whose members is a user of the cluster now: %1. Shown: their images no pod runs.</source>
        <translation>成员中已没有当前集群用户的项目：%1。显示：这些项目中没有 Pod 运行的镜像。</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>Harbor: pushed %1, last pulled %2.</source>
        <translation>Harbor：推送于 %1，最近拉取于 %2。</translation>
    </message>
    <message>
        <source>Labels: %1.</source>
        <translation>标签：%1。</translation>
    </message>
    <message>
        <source>Immutable: Harbor refuses to delete it or push over its tag.</source>
        <translation>不可变：Harbor 拒绝删除它，也拒绝覆盖推送其标签。</translation>
    </message>
    <message>
        <source>%1 is served at %2 (%3).</source>
        <translation>%1 由 %2 提供服务（%3）。</translation>
    </message>
    <message numerus="yes">
        <source>; %n image(s) the pods run not read from it</source>
        <translation>
            <numerusform>；Pod 运行的 %n 个镜像未从中读到</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::ImagesService</name>
    <message>
        <source>&quot;%1&quot; is not a registry address (host, or host:port, as in image names).</source>
        <translation>“%1”不是镜像仓库地址（应为主机或 主机:端口，与镜像名中的写法相同）。</translation>
    </message>
    <message>
        <source>Looking up credentials for %1…</source>
        <translation>正在查找 %1 的凭据…</translation>
    </message>
    <message>
        <source>Reading %1: %2 of %3 repositories, %4 tags</source>
        <translation>正在读取 %1：%2 / %3 个仓库，%4 个标签</translation>
    </message>
    <message>
        <source>Reading %1: %2 repositories so far, %3 tags</source>
        <translation>正在读取 %1：目前 %2 个仓库，%3 个标签</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an image reference.</source>
        <translation>“%1”不是有效的镜像引用。</translation>
    </message>
    <message>
        <source>%1 names no image of a platform.</source>
        <translation>%1 没有指向任何平台的镜像。</translation>
    </message>
    <message>
        <source>%1 could not say what %2:%3 names now: %4</source>
        <translation>%1 无法告知 %2:%3 当前指向什么：%4</translation>
    </message>
    <message>
        <source>%1 is blocked in %2 (line %3): gpudesk does not read it, as podman and CRI-O would not pull from it.</source>
        <translation>%1 在 %2（第 %3 行）中被屏蔽：gpudesk 不读取它，正如 podman 和 CRI-O 不会从中拉取。</translation>
    </message>
</context>
<context>
    <name>gpudesk::Informer</name>
    <message>
        <source>the server expired the list (410 Gone)%1: %2</source>
        <translation>服务器使列表失效（410 Gone）%1：%2</translation>
    </message>
    <message>
        <source> while paging</source>
        <translation>（分页读取时）</translation>
    </message>
    <message>
        <source>%1; gave up after %2 lists in a row (F5 tries again)</source>
        <translation>%1；连续 %2 次列取后已放弃（按 F5 重试）</translation>
    </message>
    <message>
        <source>the watch sent an event of more than %1 MiB without its end: stopped reading it, watching again</source>
        <translation>watch 发来一个超过 %1 MiB 仍未结束的事件：已停止读取，重新开始 watch</translation>
    </message>
    <message>
        <source>no bookmark came yet</source>
        <translation>尚未收到任何书签</translation>
    </message>
    <message>
        <source>it sends one every %1 s</source>
        <translation>它每 %1 秒发送一个</translation>
    </message>
    <message>
        <source>%1 sent no event and no bookmark for %2 s (%3) and did not answer a check within %4 s: the API server is not responding</source>
        <translation>%1 已 %2 秒没有发送任何事件或书签（%3），且在 %4 秒内未回应检查：API 服务器没有响应</translation>
    </message>
</context>
<context>
    <name>gpudesk::JobChecker</name>
    <message>
        <source>the NAS did not answer within %1 s</source>
        <translation>NAS 在 %1 秒内没有应答</translation>
    </message>
    <message>
        <source>its registry did not answer within %1 s</source>
        <translation>镜像仓库在 %1 秒内未应答</translation>
    </message>
    <message>
        <source>forbidden</source>
        <translation>无权读取</translation>
    </message>
    <message>
        <source>its layers were still being read after %1 s</source>
        <translation>%1 秒后仍在读取其镜像层</translation>
    </message>
</context>
<context>
    <name>gpudesk::JupyterProbe</name>
    <message>
        <source>Jupyter in %1 did not answer within %2 s.</source>
        <translation>%1 中的 Jupyter 在 %2 秒内没有应答。</translation>
    </message>
    <message>
        <source>`jupyter server list` ended with exit code %1 in %2.</source>
        <translation>`jupyter server list` 在 %2 中以退出码 %1 结束。</translation>
    </message>
    <message>
        <source>No Jupyter server runs in %1.</source>
        <translation>%1 中没有运行 Jupyter 服务器。</translation>
    </message>
    <message>
        <source>Jupyter in %1 answered with something other than its kernels and terminals.</source>
        <translation>%1 中的 Jupyter 返回的不是其内核和终端列表。</translation>
    </message>
    <message>
        <source>Jupyter in %1 refused its own token (HTTP %2).</source>
        <translation>%1 中的 Jupyter 拒绝了它自己的令牌（HTTP %2）。</translation>
    </message>
    <message>
        <source>Jupyter in %1 answered %2 with HTTP %3.</source>
        <translation>%1 中的 Jupyter 对 %2 返回了 HTTP %3。</translation>
    </message>
</context>
<context>
    <name>gpudesk::KubeClient</name>
    <message>
        <source>The certificate authority of context %1 is not a PEM certificate.</source>
        <translation>上下文 %1 的证书颁发机构（CA）不是 PEM 格式的证书。</translation>
    </message>
    <message>
        <source>The client key of context %1 is neither an RSA nor an EC key.</source>
        <translation>上下文 %1 的客户端私钥既不是 RSA 密钥，也不是 EC 密钥。</translation>
    </message>
    <message>
        <source>The proxy-url of context %1 is an https:// proxy; gpudesk speaks to proxies over http:// or socks5:// only.</source>
        <translation>上下文 %1 的 proxy-url 是 https:// 代理；gpudesk 只支持 http:// 或 socks5:// 代理。</translation>
    </message>
    <message>
        <source>The client certificate of context %1 is not a PEM certificate.</source>
        <translation>上下文 %1 的客户端证书不是 PEM 格式的证书。</translation>
    </message>
    <message>
        <source>The client certificate of context %1 expired on %2.</source>
        <translation>上下文 %1 的客户端证书已于 %2 过期。</translation>
    </message>
    <message>
        <source>refused the connection</source>
        <translation>拒绝了连接</translation>
    </message>
    <message>
        <source>closed the connection</source>
        <translation>关闭了连接</translation>
    </message>
    <message>
        <source>was not found (its name does not resolve)</source>
        <translation>未找到（域名无法解析）</translation>
    </message>
    <message>
        <source>did not answer in time</source>
        <translation>未能及时应答</translation>
    </message>
    <message>
        <source>asks for credentials the proxy-url does not give</source>
        <translation>需要 proxy-url 中未提供的凭据</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>The proxy %1 (proxy-url of context %2) %3; %4 was not reached.</source>
        <translation>代理 %1（上下文 %2 的 proxy-url）%3；未能到达 %4。</translation>
    </message>
    <message>
        <source>%1 did not answer within %2 s (timed out).</source>
        <translation>%1 在 %2 秒内未应答（超时）。</translation>
    </message>
    <message>
        <source>TLS with %1 failed: %2. The server&apos;s certificate is not signed by the certificate authority of context %3 (certificate-authority in the kubeconfig).</source>
        <translation>与 %1 的 TLS 连接失败：%2。服务器证书不是由上下文 %3 的证书颁发机构签发的（kubeconfig 中的 certificate-authority）。</translation>
    </message>
    <message>
        <source>%1 refused the connection (nothing listens there, or a firewall says no).</source>
        <translation>%1 拒绝了连接（该端口没有服务监听，或被防火墙拒绝）。</translation>
    </message>
    <message>
        <source>The name of %1 does not resolve.</source>
        <translation>无法解析 %1 的域名。</translation>
    </message>
    <message>
        <source>%1 did not accept the connection in time.</source>
        <translation>%1 未能及时接受连接。</translation>
    </message>
    <message>
        <source>%1 closed the connection.</source>
        <translation>%1 关闭了连接。</translation>
    </message>
    <message>
        <source>%1 sent more than %2 MiB in answer to %3 %4: gpudesk stopped reading (a page of 500 objects is a few MiB)</source>
        <translation>%1 对 %3 %4 的回应超过 %2 MiB：gpudesk 已停止读取（500 个对象的一页通常只有几 MiB）</translation>
    </message>
    <message>
        <source>%1 sent only %2 bytes in %3 s of its answer to %4 %5: gpudesk gave up (a server that trickles its answer would hold the request for ever)</source>
        <translation>%1 在 %3 秒内对 %4 %5 的应答只发送了 %2 字节：gpudesk 已放弃（一点一点发送应答的服务器会让请求永远挂起）</translation>
    </message>
    <message>
        <source>The credential plugin %1 of context %2 answered with a credential that expired at %3 (UTC), by this computer&apos;s clock: check the clock, or sign in again.</source>
        <translation>上下文 %2 的凭据插件 %1 返回的凭据已于 %3（UTC）过期（按本机时钟）：请检查时钟，或重新登录。</translation>
    </message>
</context>
<context>
    <name>gpudesk::KubeStep</name>
    <message>
        <source>still there %1 s after the request</source>
        <translation>请求 %1 秒后仍然存在</translation>
    </message>
    <message>
        <source>not an API step</source>
        <translation>不是 API 步骤</translation>
    </message>
    <message>
        <source>already gone: not acted on</source>
        <translation>已不存在：未执行操作</translation>
    </message>
    <message>
        <source>its GPUs cannot be checked again (the window shows another context): not acted on</source>
        <translation>无法再次检查其 GPU（窗口显示的是另一个上下文）：未执行操作</translation>
    </message>
    <message>
        <source>its GPUs were busy again at %1, after the plan: not acted on</source>
        <translation>其 GPU 在计划之后的 %1 又忙碌起来：未执行操作</translation>
    </message>
    <message>
        <source>changed since the plan: %1</source>
        <translation>计划之后已发生变化：%1</translation>
    </message>
    <message>
        <source>request accepted</source>
        <translation>请求已被接受</translation>
    </message>
    <message>
        <source>the server&apos;s answer does not show %1 = %2</source>
        <translation>服务器的应答未显示 %1 = %2</translation>
    </message>
    <message>
        <source>%1 is %2 on the server</source>
        <translation>服务器上 %1 为 %2</translation>
    </message>
    <message>
        <source>by %1 with gpudesk</source>
        <translation>由 %1 通过 gpudesk 执行</translation>
    </message>
    <message>
        <source>no Event on the object: %1</source>
        <translation>未能在对象上记录事件：%1</translation>
    </message>
    <message>
        <source>its pods were not watched (the window shows another context)</source>
        <translation>未能观察其 Pod（窗口显示的是另一个上下文）</translation>
    </message>
    <message>
        <source>gone from the API</source>
        <translation>已从 API 中消失</translation>
    </message>
    <message>
        <source>its pods are gone</source>
        <translation>其 Pod 已全部消失</translation>
    </message>
    <message>
        <source>PID %1 on GPU %2</source>
        <translation>GPU %2 上的 PID %1</translation>
    </message>
    <message>
        <source>%1 still runs on %2 after its pod is gone</source>
        <translation>Pod 已删除，但 %1 仍在 %2 上运行</translation>
    </message>
    <message>
        <source>GPU %1 on %2</source>
        <translation>%2 上的 GPU %1</translation>
    </message>
    <message>
        <source>free: %1</source>
        <translation>已释放：%1</translation>
    </message>
    <message>
        <source>cards not checked on %1 (no fresh sample over SSH)</source>
        <translation>未检查 %1 上的 GPU（没有最新的 SSH 采样）</translation>
    </message>
    <message>
        <source>GPU %1 on %2: %3 MiB still held with no process</source>
        <translation>%2 上的 GPU %1：无进程却仍占用 %3 MiB</translation>
    </message>
    <message>
        <source>stored as resourceVersion %1</source>
        <translation>已保存为 resourceVersion %1</translation>
    </message>
    <message>
        <source>created as %1 (uid %2)</source>
        <translation>已创建为 %1（uid %2）</translation>
    </message>
    <message>
        <source>GPU %1 on %2 still used by PID %3, not of this pod</source>
        <translation>%2 上的 GPU %1 仍被 PID %3 占用（不属于此 Pod）</translation>
    </message>
    <message>
        <source>its pod groups cannot be checked again (the window shows another context): not acted on</source>
        <translation>无法再次检查其 Pod 组（窗口显示的是另一个上下文）：未执行</translation>
    </message>
    <message numerus="yes">
        <source>%1 still holds %n job(s) (%2): it stays until they end, then it can be deleted</source>
        <translation>
            <numerusform>%1 中仍有 %n 个作业（%2）：它会保留到作业结束，之后才能删除</numerusform>
        </translation>
    </message>
    <message>
        <source>changed since the plan (the server&apos;s test of the planned spec failed): not acted on — %1</source>
        <translation>计划之后已被改动（服务器对计划时规格的校验未通过）：未执行 —— %1</translation>
    </message>
    <message>
        <source>the queue&apos;s state was not watched (the window shows another context)</source>
        <translation>未能观察队列状态（窗口显示的是另一个上下文）</translation>
    </message>
    <message>
        <source>the queue is %1</source>
        <translation>队列状态为 %1</translation>
    </message>
    <message>
        <source>the queue is still %1 after %2 s</source>
        <translation>%2 秒后队列仍为 %1</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <source>made by someone else since the plan: not acted on — %1</source>
        <translation>计划之后已被他人创建：未执行 —— %1</translation>
    </message>
</context>
<context>
    <name>gpudesk::KubeconfigDialog</name>
    <message>
        <source>Long-lived token (a token Secret that does not expire)</source>
        <translation>长期令牌（永不过期的令牌 Secret）</translation>
    </message>
    <message>
        <source>Write kubeconfig</source>
        <translation>写入 kubeconfig</translation>
    </message>
    <message>
        <source>Kubeconfig for %1</source>
        <translation>%1 的 kubeconfig</translation>
    </message>
    <message>
        <source>A kubeconfig for %1, acting as the ServiceAccount %1 in %2 on %3.</source>
        <translation>为 %1 生成的 kubeconfig，以 %2 中的 ServiceAccount %1 的身份访问 %3。</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>1 小时</translation>
    </message>
    <message>
        <source>8 hours</source>
        <translation>8 小时</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 天</translation>
    </message>
    <message>
        <source>7 days</source>
        <translation>7 天</translation>
    </message>
    <message>
        <source>30 days</source>
        <translation>30 天</translation>
    </message>
    <message>
        <source>90 days</source>
        <translation>90 天</translation>
    </message>
    <message>
        <source>1 year</source>
        <translation>1 年</translation>
    </message>
    <message>
        <source>A long-lived token works until the user&apos;s tokens are revoked (Revoke tokens). Whoever has the file acts as %1 until then. Prefer a token that expires.</source>
        <translation>长期令牌在用户的令牌被吊销（“吊销令牌”）之前一直有效。在此之前，任何拿到该文件的人都能以 %1 的身份操作。建议使用会过期的令牌。</translation>
    </message>
    <message>
        <source>May the user…</source>
        <translation>该用户能否…</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>答复</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Write the kubeconfig to</source>
        <translation>把 kubeconfig 写入</translation>
    </message>
    <message>
        <source>Expires after</source>
        <translation>有效期</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>&lt;b&gt;What the user will be able to do&lt;/b&gt; (asked of the API server):</source>
        <translation>&lt;b&gt;该用户将能做什么&lt;/b&gt;（向 API 服务器查询）：</translation>
    </message>
    <message>
        <source>Asking the API server what %1 may do…</source>
        <translation>正在向 API 服务器查询 %1 的权限…</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Choose a file to write.</source>
        <translation>请选择要写入的文件。</translation>
    </message>
    <message>
        <source>Issuing a token…</source>
        <translation>正在签发令牌…</translation>
    </message>
    <message>
        <source>Not written: %1</source>
        <translation>未写入：%1</translation>
    </message>
    <message>
        <source>expires %1</source>
        <translation>%1 过期</translation>
    </message>
    <message>
        <source>does not expire (revoke to end it)</source>
        <translation>永不过期（需吊销才能终止）</translation>
    </message>
    <message>
        <source>Written to %1 (readable by you only), context %2, %3.</source>
        <translation>已写入 %1（仅你可读），上下文 %2，%3。</translation>
    </message>
    <message>
        <source>Try it: KUBECONFIG=%1 kubectl get pods</source>
        <translation>试试：KUBECONFIG=%1 kubectl get pods</translation>
    </message>
</context>
<context>
    <name>gpudesk::LaunchScripts</name>
    <message>
        <source>%1 was not checked on the NAS: %2</source>
        <translation>未在 NAS 上检查 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not on the NAS (%2 on the nodes): the job would fail at once.</source>
        <translation>%1 不在 NAS 上（节点上为 %2）：作业会立即失败。</translation>
    </message>
    <message>
        <source>Check the path in the command, or copy the script there.</source>
        <translation>检查命令中的路径，或把脚本复制到那里。</translation>
    </message>
    <message>
        <source>%1 is a link to %2, outside every folder the pod mounts (%3): in the container it leads nowhere.</source>
        <translation>%1 是指向 %2 的链接，不在 Pod 挂载的任何文件夹（%3）之内：在容器中它指向空处。</translation>
    </message>
    <message>
        <source>Put the script itself at %1, or mount the folder the link points into.</source>
        <translation>把脚本本身放在 %1，或挂载链接所指向的文件夹。</translation>
    </message>
    <message>
        <source>%1 is a link to %2, which is not there.</source>
        <translation>%1 是指向 %2 的链接，而 %2 不存在。</translation>
    </message>
    <message>
        <source>Point the link at the script, or put the script in its place.</source>
        <translation>让链接指向脚本，或把脚本放在链接的位置。</translation>
    </message>
    <message>
        <source>%1 is run as a program, but it is not executable (mode %2).</source>
        <translation>%1 作为程序运行，但它没有可执行权限（权限 %2）。</translation>
    </message>
    <message>
        <source>%1 is on the NAS (a link to %2).</source>
        <translation>%1 在 NAS 上（指向 %2 的链接）。</translation>
    </message>
    <message>
        <source>%1 is on the NAS.</source>
        <translation>%1 在 NAS 上。</translation>
    </message>
    <message>
        <source>%1 is a link the NAS would not read: not checked.</source>
        <translation>%1 是 NAS 无法读取的链接：未检查。</translation>
    </message>
    <message>
        <source>%1 is a link to %2, outside every folder the pod mounts (%3), and not on the node either: unless the image has it, the job fails.</source>
        <translation>%1 是指向 %2 的链接，不在 Pod 挂载的任何文件夹（%3）之内，节点上也没有：除非镜像里有它，否则作业会失败。</translation>
    </message>
    <message>
        <source>chmod +x it, or start it with its interpreter (%1 %2).</source>
        <translation>对它执行 chmod +x，或用解释器启动它（%1 %2）。</translation>
    </message>
    <message>
        <source>Mount the node&apos;s %1 at %2, where the link leads; or put the script itself at %3.</source>
        <translation>把节点上的 %1 挂载到链接所指的 %2；或把脚本本身放到 %3。</translation>
    </message>
    <message>
        <source>Run the script by the path the container sees it at, %1; or put the script itself at %2.</source>
        <translation>按容器中能看到的路径 %1 运行脚本；或把脚本本身放到 %2。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Run the script by the path the container sees it at, %1 (where the command names it otherwise, mount the node&apos;s %2 there, where the link leads); or put the script itself at %3.</source>
        <translation>按容器中能看到的路径 %1 运行脚本（若命令以其他写法引用它，则把节点上的 %2 挂载到同一路径，即链接所指之处）；或把脚本本身放到 %3。</translation>
    </message>
    <message>
        <source>A relative link (ln -sfr) works on the node and in the pod alike.</source>
        <translation>相对链接（ln -sfr）在节点上和 Pod 中都能用。</translation>
    </message>
</context>
<context>
    <name>gpudesk::LayerScan</name>
    <message>
        <source>the layer is zstd-compressed, which is not read</source>
        <translation>该层为 zstd 压缩，无法读取</translation>
    </message>
    <message>
        <source>zlib could not be started</source>
        <translation>无法启动 zlib</translation>
    </message>
    <message>
        <source>the layer&apos;s gzip stream is broken (%1)</source>
        <translation>该层的 gzip 数据流已损坏（%1）</translation>
    </message>
    <message numerus="yes">
        <source>the layer is not a tar archive (a header&apos;s checksum or size is wrong, after %n entries)</source>
        <translation>
            <numerusform>该层不是 tar 归档（在 %n 个条目之后，某个头部的校验和或大小有误）</numerusform>
        </translation>
    </message>
    <message>
        <source>the layer has a name of %1 bytes</source>
        <translation>该层含有长达 %1 字节的文件名</translation>
    </message>
    <message numerus="yes">
        <source>the layer is %n byte(s) long: not a tar archive</source>
        <translation>
            <numerusform>该层只有 %n 字节：不是 tar 归档</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the layer ended in the middle (after %n entries)</source>
        <translation>
            <numerusform>该层在中途结束（已读 %n 个条目）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::LimitRanger</name>
    <message>
        <source>the API server refuses the pod</source>
        <translation>API 服务器会拒绝创建该 Pod</translation>
    </message>
    <message>
        <source>the job is accepted, but the API server refuses the pods its controller makes: it sits with none</source>
        <translation>作业会被接受，但其控制器创建的 Pod 会被 API 服务器拒绝：作业将一直没有任何 Pod</translation>
    </message>
    <message>
        <source>%1 limit %2 for %3 (LimitRange %4)</source>
        <translation>%3 的 %1 上限 %2（LimitRange %4）</translation>
    </message>
    <message>
        <source>%1 request %2 for %3 (LimitRange %4)</source>
        <translation>%3 的 %1 请求 %2（LimitRange %4）</translation>
    </message>
    <message>
        <source>Give %1 a %2 limit of at least %3.</source>
        <translation>为 %1 设置不低于 %3 的 %2 上限。</translation>
    </message>
    <message>
        <source>%1: what its containers do not say, the namespace gives: %2.</source>
        <translation>%1：容器未写明的资源由命名空间补上：%2。</translation>
    </message>
    <message>
        <source>%1: the namespace&apos;s LimitRange bounds what a container may ask for: %2 (&quot;%3&quot;).</source>
        <translation>%1：命名空间的 LimitRange 限制了容器可申请的资源：%2（“%3”）。</translation>
    </message>
    <message>
        <source>Ask for what the LimitRange allows, or ask an administrator to change it.</source>
        <translation>按 LimitRange 允许的范围申请资源，或请管理员调整它。</translation>
    </message>
    <message>
        <source>%1: container %2 asks for %3 of %4, but its limit is %5 — the namespace&apos;s default where none is written: %6 (&quot;%7&quot;).</source>
        <translation>%1：容器 %2 请求 %3 的 %4，但其上限只有 %5——未填写上限时取命名空间的默认值：%6（“%7”）。</translation>
    </message>
    <message>
        <source>%1: container %2 asks for %3 of %4, above its limit of %5: %6 (&quot;%7&quot;).</source>
        <translation>%1：容器 %2 请求 %3 的 %4，超过了其上限 %5：%6（“%7”）。</translation>
    </message>
</context>
<context>
    <name>gpudesk::LogDownload</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1 (%2 bytes).</source>
        <translation>已保存 %1（%2 字节）。</translation>
    </message>
</context>
<context>
    <name>gpudesk::LogStream</name>
    <message>
        <source> … [line cut at %1 MiB by gpudesk; a download keeps it whole]</source>
        <translation> … [gpudesk 已在 %1 MiB 处截断此行；下载可保存完整内容]</translation>
    </message>
    <message>
        <source>No log line for %1 s, and %2 did not answer a check within %3 s: the API server is not responding</source>
        <translation>%1 秒内没有新的日志行，且 %2 在 %3 秒内未回应检查：API 服务器没有响应</translation>
    </message>
</context>
<context>
    <name>gpudesk::LogView</name>
    <message>
        <source>Follow</source>
        <translation>跟随</translation>
    </message>
    <message>
        <source>Previous container</source>
        <translation>上一个容器</translation>
    </message>
    <message>
        <source>Timestamps</source>
        <translation>时间戳</translation>
    </message>
    <message>
        <source>Wrap</source>
        <translation>自动换行</translation>
    </message>
    <message>
        <source>Pod</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Container</source>
        <translation>容器</translation>
    </message>
    <message>
        <source>all lines</source>
        <translation>全部行</translation>
    </message>
    <message>
        <source>last </source>
        <translation>最后 </translation>
    </message>
    <message>
        <source>How many lines to fetch first (0: the whole log)</source>
        <translation>先获取多少行（0：整个日志）</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Previous match (Shift+F3)</source>
        <translation>上一个匹配（Shift+F3）</translation>
    </message>
    <message>
        <source>Shift+F3</source>
        <translation>Shift+F3</translation>
    </message>
    <message>
        <source>Next match (F3)</source>
        <translation>下一个匹配（F3）</translation>
    </message>
    <message>
        <source>F3</source>
        <translation>F3</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the selected lines (Ctrl+C)</source>
        <translation>复制选中的行（Ctrl+C）</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <source>Save the whole log from the API server, not just the lines shown</source>
        <translation>从 API 服务器保存完整日志，而不只是显示的行</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>This object has no pods, so there is no log to show.</source>
        <translation>该对象没有 Pod，因此没有日志可显示。</translation>
    </message>
    <message>
        <source>Following the log…</source>
        <translation>正在跟随日志…</translation>
    </message>
    <message>
        <source>Loading the log…</source>
        <translation>正在加载日志…</translation>
    </message>
    <message>
        <source>The stream broke (%1); resuming from the last line…</source>
        <translation>日志流中断（%1），正在从最后一行继续…</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s); the stream ended.</source>
        <translation>
            <numerusform>共 %n 行；日志流已结束。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read the log: %1</source>
        <translation>无法读取日志：%1</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>Save the whole log</source>
        <translation>保存完整日志</translation>
    </message>
    <message>
        <source>Downloading… %1 KiB</source>
        <translation>正在下载… %1 KiB</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>◀ Error</source>
        <translation>◀ 错误</translation>
    </message>
    <message>
        <source>Previous error line (Shift+F8)</source>
        <translation>上一个错误行（Shift+F8）</translation>
    </message>
    <message>
        <source>Shift+F8</source>
        <translation>Shift+F8</translation>
    </message>
    <message>
        <source>Error ▶</source>
        <translation>错误 ▶</translation>
    </message>
    <message>
        <source>Next error line: traceback, error, CUDA error, out of memory (F8)</source>
        <translation>下一个错误行：Traceback、错误、CUDA 错误、显存不足（F8）</translation>
    </message>
    <message>
        <source>F8</source>
        <translation>F8</translation>
    </message>
    <message numerus="yes">
        <source>%n error line(s)</source>
        <translation>
            <numerusform>%n 个错误行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n earlier line(s) not kept (Download saves the whole log)</source>
        <translation>
            <numerusform>未保留更早的 %n 行（“下载”可保存完整日志）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The start of the log (its first %1): %n line(s). Follow reads its end.</source>
        <translation>
            <numerusform>日志开头（前 %1）：%n 行。勾选“跟随”可读取结尾。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::MainMenus</name>
    <message>
        <source>%1: not possible now.</source>
        <translation>%1：当前无法执行。</translation>
    </message>
    <message>
        <source>%1: not possible now. %2</source>
        <translation>%1：当前无法执行。%2</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open kubeconfig…</source>
        <translation>打开 kubeconfig……</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>Ctrl+Q</source>
        <translation>Ctrl+Q</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Full screen</source>
        <translation>全屏</translation>
    </message>
    <message>
        <source>&amp;Cluster</source>
        <translation>集群(&amp;C)</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>重新连接</translation>
    </message>
    <message>
        <source>Connect to the context again and list everything afresh</source>
        <translation>重新连接该上下文并重新列出全部对象</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>No kubeconfig read</source>
        <translation>尚未读取 kubeconfig</translation>
    </message>
    <message>
        <source>New user…</source>
        <translation>新建用户…</translation>
    </message>
    <message>
        <source>Import users from CSV…</source>
        <translation>从 CSV 导入用户……</translation>
    </message>
    <message>
        <source>New VC…</source>
        <translation>新建虚拟集群…</translation>
    </message>
    <message>
        <source>Review unknown host keys…</source>
        <translation>审核未知主机密钥……</translation>
    </message>
    <message>
        <source>&amp;Node</source>
        <translation>节点(&amp;N)</translation>
    </message>
    <message>
        <source>No node selected</source>
        <translation>未选择节点</translation>
    </message>
    <message>
        <source>&amp;Workload</source>
        <translation>作业(&amp;W)</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>YAML</source>
        <translation>YAML</translation>
    </message>
    <message>
        <source>Ctrl+Y</source>
        <translation>Ctrl+Y</translation>
    </message>
    <message>
        <source>Of the selected pod, job, node or dev environment</source>
        <translation>所选 Pod、作业、节点或开发环境的</translation>
    </message>
    <message>
        <source>Selected workloads</source>
        <translation>所选作业</translation>
    </message>
    <message>
        <source>No workload selected</source>
        <translation>未选择作业</translation>
    </message>
    <message>
        <source>New dev environment…</source>
        <translation>新建开发环境……</translation>
    </message>
    <message>
        <source>Open Jupyter</source>
        <translation>打开 Jupyter</translation>
    </message>
    <message>
        <source>Open a terminal</source>
        <translation>打开终端</translation>
    </message>
    <message>
        <source>Open in VS Code</source>
        <translation>在 VS Code 中打开</translation>
    </message>
    <message>
        <source>Save dev environment as image…</source>
        <translation>将开发环境保存为镜像……</translation>
    </message>
    <message>
        <source>Stop dev environment…</source>
        <translation>停止开发环境……</translation>
    </message>
    <message>
        <source>Start dev environment…</source>
        <translation>启动开发环境……</translation>
    </message>
    <message>
        <source>Delete dev environment…</source>
        <translation>删除开发环境……</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>Go to…</source>
        <translation>转到……</translation>
    </message>
    <message>
        <source>Ctrl+K</source>
        <translation>Ctrl+K</translation>
    </message>
    <message>
        <source>Type a node, pod, job, user, VC or action and go there (Ctrl+K)</source>
        <translation>输入节点、Pod、作业、用户、虚拟集群或操作并转到该处（Ctrl+K）</translation>
    </message>
    <message>
        <source>Filter this page</source>
        <translation>筛选本页</translation>
    </message>
    <message>
        <source>Zombie and idle tasks</source>
        <translation>僵尸与空闲任务</translation>
    </message>
    <message>
        <source>Add registry…</source>
        <translation>添加镜像仓库…</translation>
    </message>
    <message>
        <source>Read the registry again</source>
        <translation>重新读取镜像仓库</translation>
    </message>
    <message>
        <source>Share image…</source>
        <translation>共享镜像……</translation>
    </message>
    <message>
        <source>Delete images…</source>
        <translation>删除镜像……</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <source>What gpudesk did to clusters and nodes, by whom, with what result</source>
        <translation>gpudesk 对集群和节点做过什么、由谁执行、结果如何</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Ctrl+/</source>
        <translation>Ctrl+/</translation>
    </message>
    <message>
        <source>About gpudesk</source>
        <translation>关于 gpudesk</translation>
    </message>
    <message>
        <source>&lt;h3&gt;gpudesk %1&lt;/h3&gt;&lt;p&gt;A desktop console for GPU training clusters on Kubernetes: nodes, cards and processes; users and virtual clusters; zombie tasks; dev environments; images.&lt;/p&gt;&lt;p&gt;Licensed under the GNU GPL, version 3 or later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;gpudesk %1&lt;/h3&gt;&lt;p&gt;面向 Kubernetes 上 GPU 训练集群的桌面控制台：节点、显卡与进程；用户与虚拟集群；僵尸任务；开发环境；镜像。&lt;/p&gt;&lt;p&gt;以 GNU GPL 第 3 版或更高版本授权。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About Qt</source>
        <translation>关于 Qt</translation>
    </message>
    <message>
        <source>Select a pod, job, node or dev environment first (on the Workloads, Nodes, Cleanup or Dev environments page).</source>
        <translation>请先选择一个 Pod、作业、节点或开发环境（在作业、节点、清理或开发环境页面）。</translation>
    </message>
    <message>
        <source>Harbor garbage collection…</source>
        <translation>Harbor 垃圾回收…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Ctrl+,</source>
        <translation>Ctrl+,</translation>
    </message>
    <message>
        <source>Select workloads on the Workloads page</source>
        <translation>请在“工作负载”页选择作业</translation>
    </message>
    <message>
        <source>Go to Workloads</source>
        <translation>前往“工作负载”</translation>
    </message>
    <message>
        <source>New training job…</source>
        <translation>新建训练作业…</translation>
    </message>
</context>
<context>
    <name>gpudesk::MainWindow</name>
    <message>
        <source>gpudesk</source>
        <translation>gpudesk</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <source>The kubeconfig context to connect to</source>
        <translation>要连接的 kubeconfig 上下文</translation>
    </message>
    <message>
        <source>No context</source>
        <translation>无上下文</translation>
    </message>
    <message>
        <source>Context: %1</source>
        <translation>上下文：%1</translation>
    </message>
    <message>
        <source>TLS verification is off for this context (insecure-skip-tls-verify): gpudesk cannot tell this server from an impostor.</source>
        <translation>此上下文已关闭 TLS 校验（insecure-skip-tls-verify）：gpudesk 无法分辨该服务器是否被冒充。</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Connected to %1, Kubernetes %2</source>
        <translation>已连接到 %1，Kubernetes %2</translation>
    </message>
    <message>
        <source>Cannot connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>syncing</source>
        <translation>同步中</translation>
    </message>
    <message numerus="yes">
        <source>live, %n object(s) at the last list</source>
        <translation>
            <numerusform>实时，上次列出 %n 个对象</numerusform>
        </translation>
    </message>
    <message>
        <source>retrying since %1: %2</source>
        <translation>自 %1 起重试中：%2</translation>
    </message>
    <message>
        <source>not installed on this cluster</source>
        <translation>该集群未安装</translation>
    </message>
    <message>
        <source>not allowed: %1</source>
        <translation>无权限：%1</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>(namespace %1 only)</source>
        <translation>（仅命名空间 %1）</translation>
    </message>
    <message numerus="yes">
        <source>All %n collection(s) live</source>
        <translation>
            <numerusform>全部 %n 类资源实时同步</numerusform>
        </translation>
    </message>
    <message>
        <source>Your account may not list these cluster-wide; showing namespace %1 only.</source>
        <translation>您的账号无权在整个集群范围列出这些资源；仅显示命名空间 %1。</translation>
    </message>
    <message>
        <source>Host key</source>
        <translation>主机密钥</translation>
    </message>
    <message>
        <source>Node telemetry off</source>
        <translation>节点监控已关闭</translation>
    </message>
    <message>
        <source>SSH: %1 of %2 nodes answering</source>
        <translation>SSH：%2 个节点中 %1 个有响应</translation>
    </message>
    <message numerus="yes">
        <source>%n waiting for you</source>
        <translation>
            <numerusform>%n 个等待您处理</numerusform>
        </translation>
    </message>
    <message>
        <source>SSH password</source>
        <translation>SSH 密码</translation>
    </message>
    <message>
        <source>Key passphrase</source>
        <translation>密钥口令</translation>
    </message>
    <message>
        <source>Password for %1:</source>
        <translation>%1 的密码：</translation>
    </message>
    <message>
        <source>Passphrase of %1, to reach %2:</source>
        <translation>%1 的口令，用于连接 %2：</translation>
    </message>
    <message>
        <source>Remember it in the system keychain (otherwise it is kept in memory until gpudesk quits)</source>
        <translation>保存到系统钥匙串（否则仅保存在内存中，直到 gpudesk 退出）</translation>
    </message>
    <message>
        <source>%1: retrying since %2</source>
        <translation>%1：自 %2 起重试中</translation>
    </message>
    <message>
        <source>%1: failed since %2</source>
        <translation>%1：自 %2 起失败</translation>
    </message>
    <message>
        <source>API server unreachable since %1</source>
        <translation>自 %1 起无法连接 API 服务器</translation>
    </message>
    <message>
        <source>Not current since %1</source>
        <translation>自 %1 起数据未更新</translation>
    </message>
    <message>
        <source>Not current since %1: %2. What you see is as of then; gpudesk keeps retrying.</source>
        <translation>自 %1 起数据未更新：%2。所显示内容为当时的状态；gpudesk 正在持续重试。</translation>
    </message>
    <message numerus="yes">
        <source>%n SSH config warning(s)</source>
        <translation>
            <numerusform>%n 条 SSH 配置警告</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1：%2 / %3</translation>
    </message>
    <message>
        <source>Run %1 %2 again</source>
        <translation>重新运行 %1 %2</translation>
    </message>
    <message>
        <source>%1 unreachable since %2</source>
        <translation>%1 自 %2 起无法访问</translation>
    </message>
    <message numerus="yes">
        <source>%n unreachable since %1</source>
        <translation>
            <numerusform>%n 个节点自 %1 起无法访问</numerusform>
        </translation>
    </message>
    <message>
        <source>Not switched to %1: %2. Still connected to %3.</source>
        <translation>未切换到 %1：%2。仍连接着 %3。</translation>
    </message>
    <message>
        <source>%1 (not in the kubeconfig)</source>
        <translation>%1（不在 kubeconfig 中）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>GPU map</source>
        <translation>GPU 分布图</translation>
    </message>
    <message>
        <source>Workloads</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Dev environments</source>
        <translation>开发环境</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>VCs</source>
        <comment>virtual clusters</comment>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>Cleanup</source>
        <translation>清理</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Run %1 %2 again, with the fix</source>
        <translation>修复后重新运行 %1 %2</translation>
    </message>
    <message>
        <source>Storage</source>
        <comment>the NAS</comment>
        <translation>存储</translation>
    </message>
    <message numerus="yes">
        <source>%n collection(s) listing</source>
        <translation>
            <numerusform>%n 个集合正在列取</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::NasCleanup</name>
    <message>
        <source>Stale large file</source>
        <translation>长期未用的大文件</translation>
    </message>
    <message>
        <source>Core dump</source>
        <translation>核心转储</translation>
    </message>
    <message>
        <source>Folder of a user who left</source>
        <translation>已离开用户的目录</translation>
    </message>
    <message>
        <source>Folders of users who left: not judged, the cluster&apos;s users could not be read (namespaces labelled gpudesk.io/user).</source>
        <translation>已离开用户的目录：未判断，无法读取集群的用户（带 gpudesk.io/user 标签的命名空间）。</translation>
    </message>
    <message>
        <source>%1 (%2 on disk)</source>
        <translation>%1（磁盘上 %2）</translation>
    </message>
    <message numerus="yes">
        <source>%1, neither read nor changed for %n day(s) (read %2, changed %3)</source>
        <translation>
            <numerusform>%1，已 %n 天既未读取也未修改（读取于 %2，修改于 %3）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, a core dump written %n day(s) ago (%2): what a crashed process left</source>
        <translation>
            <numerusform>%1，%n 天前写入的核心转储（%2）：崩溃进程留下的</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 in %2 file(s); no namespace is labelled gpudesk.io/user=%3 now; nothing below it changed since %4</source>
        <translation>%1，共 %2 个文件；现在没有命名空间带 gpudesk.io/user=%3 标签；自 %4 起其下没有任何改动</translation>
    </message>
    <message>
        <source>Outputs of a job gone or long ended</source>
        <translation>已删除或早已结束的作业的输出</translation>
    </message>
    <message>
        <source>Outputs of jobs: not judged, the cluster&apos;s jobs could not all be read (pods, Volcano jobs, PyTorchJobs, MPIJobs).</source>
        <translation>作业输出：未判断，无法读取集群的全部作业（Pod、Volcano 作业、PyTorchJob、MPIJob）。</translation>
    </message>
    <message>
        <source>%1 in %2 file(s), named for job %3, which ended %4; nothing below it changed since %5 or was read since %6</source>
        <translation>%1，共 %2 个文件，以作业 %3 命名（该作业于 %4 结束）；自 %5 起其下没有改动，自 %6 起没有被读取</translation>
    </message>
    <message>
        <source>%1 in %2 file(s), named for job %3: no job or pod of that name is left in %4&apos;s namespaces, none runs in another; nothing below it changed since %5 or was read since %6</source>
        <translation>%1，共 %2 个文件，以作业 %3 命名：%4 的命名空间中已没有同名的作业或 Pod，其他命名空间中也没有在运行；自 %5 起其下没有改动，自 %6 起没有被读取</translation>
    </message>
</context>
<context>
    <name>gpudesk::NasCleanupPanel</name>
    <message>
        <source>Remove…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Show in Files</source>
        <translation>在“文件”中显示</translation>
    </message>
    <message numerus="yes">
        <source>Files of %1 and more that the NAS says were neither read nor changed for %n day(s)</source>
        <translation>
            <numerusform>NAS 显示 %n 天内既未读取也未修改、且不小于 %1 的文件</numerusform>
        </translation>
    </message>
    <message>
        <source> d</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>Core dumps younger than this are left: someone may be reading one</source>
        <translation>比这更新的核心转储会保留：可能有人正在分析</translation>
    </message>
    <message>
        <source>Core dumps older than</source>
        <translation>核心转储早于</translation>
    </message>
    <message>
        <source>Folders untouched for</source>
        <translation>目录未改动达</translation>
    </message>
    <message>
        <source>Filter: path, owner, evidence…</source>
        <translation>筛选：路径、所有者、依据…</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>On disk</source>
        <translation>磁盘占用</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>最近改动</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Ask the NAS about each again, then plan their removal: shown, checked and confirmed before anything goes</source>
        <translation>先向 NAS 重新查询每一项，再计划删除：删除前会显示、检查并确认</translation>
    </message>
    <message>
        <source>The NAS was not walked yet: Measure now on the Usage tab.</source>
        <translation>NAS 尚未扫描：请在“资源使用”页点击“立即测量”。</translation>
    </message>
    <message>
        <source>From the last walk (%1 on %2). Removed since then: not listed.</source>
        <translation>来自最近一次扫描（%1，于 %2）。此后已删除的不再列出。</translation>
    </message>
    <message>
        <source>Nothing to clean up in what is shown.</source>
        <translation>所显示的内容中没有可清理的。</translation>
    </message>
    <message numerus="yes">
        <source>%n candidate(s): %1 (%2 on disk)</source>
        <translation>
            <numerusform>%n 个候选项：%1（磁盘上 %2）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove %n…</source>
        <translation>
            <numerusform>删除 %n 项…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2 on disk) chosen; the NAS is asked about each again before the plan is shown</source>
        <translation>已选 %1（磁盘上 %2）；显示计划前会再次向 NAS 查询每一项</translation>
    </message>
    <message numerus="yes">
        <source>Asking the NAS about %n item(s)…</source>
        <translation>
            <numerusform>正在向 NAS 查询 %n 项…</numerusform>
        </translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>A folder written to more lately is someone&apos;s, with a namespace or not</source>
        <translation>比这更近写入过的目录属于某人，无论是否有命名空间</translation>
    </message>
    <message>
        <source>A job&apos;s outputs read or written more lately are in use (a checkpoint loaded to resume or to evaluate), job or not</source>
        <translation>比这更近读写过的作业输出仍在使用中（例如为续训或评估而加载的检查点），无论作业是否还在</translation>
    </message>
    <message>
        <source>Job outputs unused for</source>
        <translation>作业输出未使用超过</translation>
    </message>
</context>
<context>
    <name>gpudesk::NasFileViewer</name>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>%1 holds binary data (%2): download it to open it with its own program.</source>
        <translation>%1 是二进制数据（%2）：请下载后用相应的程序打开。</translation>
    </message>
    <message>
        <source>%1 — its last %2 of %3, from a line&apos;s start.</source>
        <translation>%1 — 共 %3，显示最后 %2（从行首开始）。</translation>
    </message>
    <message>
        <source>%1 — %2.</source>
        <translation>%1 — %2。</translation>
    </message>
</context>
<context>
    <name>gpudesk::NasFiles</name>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>No node that mounts the NAS answers over SSH.</source>
        <translation>没有挂载 NAS 的节点通过 SSH 响应。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>%1 stayed busy with another copy.</source>
        <translation>%1 一直忙于另一个复制任务。</translation>
    </message>
    <message>
        <source>%1: a link or special file, not followed</source>
        <translation>%1：链接或特殊文件，未跟随</translation>
    </message>
    <message>
        <source>%1 is a link or special file: only files and folders are copied</source>
        <translation>%1 是链接或特殊文件：只复制文件和文件夹</translation>
    </message>
    <message>
        <source>%1: %2 copied of %3; the file changed during the copy?</source>
        <translation>%1：已复制 %2，共 %3；复制过程中文件有改动？</translation>
    </message>
    <message>
        <source>Cannot name %1</source>
        <translation>无法命名 %1</translation>
    </message>
    <message numerus="yes">
        <source>Downloaded %n file(s), %1, into %2.</source>
        <translation>
            <numerusform>已下载 %n 个文件（%1）到 %2。</numerusform>
        </translation>
    </message>
    <message>
        <source>Left: %1</source>
        <translation>未复制：%1</translation>
    </message>
    <message>
        <source>%1 is there already: nothing was replaced.</source>
        <translation>%1 已存在：未替换任何内容。</translation>
    </message>
    <message>
        <source>%1: %2 on the NAS of %3</source>
        <translation>%1：NAS 上为 %2，应为 %3</translation>
    </message>
    <message>
        <source>Uploaded %1 (%2) to %3.</source>
        <translation>已上传 %1（%2）到 %3。</translation>
    </message>
    <message>
        <source>%1 is not inside a NAS root (%2): gpudesk reads nothing outside them.</source>
        <translation>%1 不在 NAS 根目录（%2）之内：gpudesk 不读取根目录以外的任何东西。</translation>
    </message>
    <message>
        <source>The NAS could not be asked about the candidates: %1</source>
        <translation>无法向 NAS 查询这些候选项：%1</translation>
    </message>
    <message>
        <source>%1 is neither a file nor a folder: not copied</source>
        <translation>%1 既不是文件也不是文件夹：未复制</translation>
    </message>
    <message>
        <source>%1 is there already (%2): not replaced</source>
        <translation>%1 已存在（%2）：未替换</translation>
    </message>
    <message numerus="yes">
        <source>Uploaded %n file(s), %1, to %2.</source>
        <translation>
            <numerusform>已上传 %n 个文件（%1）到 %2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of them were there from a copy that broke.</source>
        <translation>
            <numerusform>其中 %n 个来自上次中断的复制，已在 NAS 上。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: a link, not followed</source>
        <translation>%1：是链接，未跟随</translation>
    </message>
    <message>
        <source>%1: cannot be read</source>
        <translation>%1：无法读取</translation>
    </message>
    <message>
        <source>%1: a special file, not copied</source>
        <translation>%1：是特殊文件，未复制</translation>
    </message>
    <message>
        <source>%1 is there and is not a plain file: nothing was written.</source>
        <translation>%1 已存在且不是普通文件：未写入任何内容。</translation>
    </message>
    <message>
        <source>its name cannot be given to find</source>
        <translation>其名称无法交给 find</translation>
    </message>
    <message>
        <source>find ended with status %1</source>
        <translation>find 以状态 %1 结束</translation>
    </message>
    <message>
        <source>gpudesk has no SSH to the nodes here, and your dev environments could not be read: %1</source>
        <translation>此处 gpudesk 无法通过 SSH 连接节点，且无法读取你的开发环境：%1</translation>
    </message>
    <message>
        <source>gpudesk has no SSH to the nodes here, and none of your dev environments runs with a folder of the NAS (%1) mounted: start one to reach your files through it.</source>
        <translation>此处 gpudesk 无法通过 SSH 连接节点，且你没有挂载了 NAS 文件夹（%1）的运行中的开发环境：启动一个开发环境即可通过它访问你的文件。</translation>
    </message>
    <message>
        <source>Through %1, your dev environment&apos;s pod (namespace %2): the NAS&apos;s folders it mounts.</source>
        <translation>通过你的开发环境 Pod %1（命名空间 %2）：显示它挂载的 NAS 文件夹。</translation>
    </message>
    <message>
        <source>This needs SSH to a node that mounts the NAS, and gpudesk has no SSH to the nodes here (node telemetry is off): your dev environment&apos;s pod reaches your files, but the cleanup&apos;s walks and checks are done from a node.</source>
        <translation>这需要通过 SSH 连接到挂载了 NAS 的节点，而此处 gpudesk 无法通过 SSH 连接节点（节点遥测已关闭）：你的开发环境 Pod 可以访问你的文件，但清理的遍历和检查需在节点上进行。</translation>
    </message>
</context>
<context>
    <name>gpudesk::NasFilesPanel</name>
    <message>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <source>Upload…</source>
        <translation>上传…</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>改动时间</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上一级</translation>
    </message>
    <message>
        <source>Download %1 into</source>
        <translation>将 %1 下载到</translation>
    </message>
    <message>
        <source>Upload into %1</source>
        <translation>上传到 %1</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>link</source>
        <translation>链接</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>%1前</translation>
    </message>
    <message numerus="yes">
        <source>%n entries in %1</source>
        <translation>
            <numerusform>%1 中有 %n 个条目</numerusform>
        </translation>
    </message>
    <message>
        <source>Downloading %1 into %2…</source>
        <translation>正在下载 %1 到 %2…</translation>
    </message>
    <message>
        <source>Uploading %1 into %2…</source>
        <translation>正在上传 %1 到 %2…</translation>
    </message>
    <message>
        <source>%1 — %2/s</source>
        <translation>%1 —— %2/秒</translation>
    </message>
    <message>
        <source>Remove…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Move…</source>
        <translation>移动…</translation>
    </message>
    <message>
        <source>Move %1</source>
        <translation>移动 %1</translation>
    </message>
    <message>
        <source>Into the folder (on the NAS):</source>
        <translation>移到文件夹（NAS 上）：</translation>
    </message>
    <message>
        <source>Read a text file here: a log, a config, a launch script</source>
        <translation>在此阅读文本文件：日志、配置、启动脚本</translation>
    </message>
    <message>
        <source>Choose a file to open.</source>
        <translation>请选择要打开的文件。</translation>
    </message>
    <message>
        <source>Open file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <source>%1 is a link: links are not followed.</source>
        <translation>%1 是链接：不跟随链接。</translation>
    </message>
    <message>
        <source>%1 is not a plain file: only files are opened.</source>
        <translation>%1 不是普通文件：只打开文件。</translation>
    </message>
    <message>
        <source>A file…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <source>A folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>Upload a folder into %1</source>
        <translation>上传文件夹到 %1</translation>
    </message>
</context>
<context>
    <name>gpudesk::NasInspect</name>
    <message>
        <source>No node that mounts the NAS answers over SSH.</source>
        <translation>没有挂载 NAS 的节点通过 SSH 响应。</translation>
    </message>
    <message>
        <source>Every node that mounts the NAS stayed busy.</source>
        <translation>挂载 NAS 的节点一直繁忙。</translation>
    </message>
    <message>
        <source>%1 stayed busy.</source>
        <translation>%1 一直忙碌。</translation>
    </message>
</context>
<context>
    <name>gpudesk::NasPlanner</name>
    <message>
        <source>No node that mounts the NAS answers over SSH.</source>
        <translation>没有挂载 NAS 的节点通过 SSH 响应。</translation>
    </message>
    <message>
        <source>chosen in the Files tab</source>
        <translation>在“文件”标签页中选定</translation>
    </message>
    <message>
        <source>Remove %1 from the NAS</source>
        <translation>从 NAS 删除 %1</translation>
    </message>
    <message>
        <source>%1 is not inside a NAS root (%2): gpudesk removes nothing outside them.</source>
        <translation>%1 不在 NAS 根目录（%2）之内：gpudesk 不删除根目录以外的任何东西。</translation>
    </message>
    <message>
        <source>Remove the folder %1 and everything in it</source>
        <translation>删除文件夹 %1 及其中全部内容</translation>
    </message>
    <message>
        <source>Remove the link %1 (not what it points to)</source>
        <translation>删除链接 %1（不删除它指向的内容）</translation>
    </message>
    <message>
        <source>Remove %1 (%2)</source>
        <translation>删除 %1（%2）</translation>
    </message>
    <message>
        <source>gpudesk cannot bring back what is removed from the NAS; only the NAS&apos;s own snapshots, where it keeps them, can.</source>
        <translation>从 NAS 删除的内容 gpudesk 无法恢复；只有 NAS 自己的快照（若有保留）可以恢复。</translation>
    </message>
    <message>
        <source>Move %1 to %2</source>
        <translation>将 %1 移到 %2</translation>
    </message>
    <message>
        <source>%1 is not inside a NAS root (%2).</source>
        <translation>%1 不在 NAS 根目录（%2）之内。</translation>
    </message>
    <message>
        <source>%1 is not a folder inside a NAS root (%2).</source>
        <translation>%1 不是 NAS 根目录（%2）之内的文件夹。</translation>
    </message>
    <message>
        <source>%1 is already in %2.</source>
        <translation>%1 已在 %2 中。</translation>
    </message>
    <message>
        <source>A folder cannot be moved into itself.</source>
        <translation>文件夹不能移到它自身之内。</translation>
    </message>
    <message>
        <source>Jobs and dev environments that use the old path will not find it there.</source>
        <translation>使用旧路径的作业和开发环境将在原处找不到它。</translation>
    </message>
    <message numerus="yes">
        <source>Remove %n item(s) from the NAS</source>
        <translation>
            <numerusform>从 NAS 删除 %n 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Clean up the NAS: %n item(s), %1</source>
        <translation>
            <numerusform>清理 NAS：%n 项，%1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is no longer there: left out.</source>
        <translation>%1 已不存在：不纳入计划。</translation>
    </message>
    <message>
        <source>%1 is no longer what the walk found: left out.</source>
        <translation>%1 已不是扫描时的类型：不纳入计划。</translation>
    </message>
    <message>
        <source>%1 changed since the walk (%2, %3): left out.</source>
        <translation>%1 在扫描后有改动（%2，%3）：不纳入计划。</translation>
    </message>
    <message>
        <source>Found in the walk of %1 on %2; each path was asked again just now.</source>
        <translation>来自 %1 在 %2 上的扫描；每个路径刚刚已重新查询。</translation>
    </message>
    <message>
        <source>%1 was read since the walk (%2): left out.</source>
        <translation>%1 在扫描后被读取过（%2）：不纳入计划。</translation>
    </message>
    <message>
        <source>%1 changed since the walk (an entry made or removed in it, %2): left out.</source>
        <translation>%1 在扫描后有改动（其中有条目新建或删除，%2）：不纳入计划。</translation>
    </message>
    <message>
        <source>%1 could not be walked again right before (%2): left out.</source>
        <translation>%1 在计划前无法再次遍历（%2）：已排除。</translation>
    </message>
    <message>
        <source>%1 changed below it since the walk (%2): left out.</source>
        <translation>%1 在遍历后其下有改动（%2）：已排除。</translation>
    </message>
    <message>
        <source>Found in the walk of %1 on %2; each path was asked again just now, each folder walked again.</source>
        <translation>在 %1 于 %2 上的遍历中发现；每个路径刚刚都重新查询过，每个目录都重新遍历过。</translation>
    </message>
</context>
<context>
    <name>gpudesk::NasStep</name>
    <message>
        <source>folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>link</source>
        <translation>链接</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>special file</source>
        <translation>特殊文件</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is already there: nothing is replaced</source>
        <translation>%1 已存在：不会覆盖任何内容</translation>
    </message>
    <message>
        <source>Still as planned; %1 is free</source>
        <translation>与计划一致；%1 尚未被占用</translation>
    </message>
    <message>
        <source>moved to %1</source>
        <translation>已移到 %1</translation>
    </message>
    <message>
        <source>%1 is there, %2 no longer</source>
        <translation>%1 已在，%2 已不在</translation>
    </message>
    <message>
        <source>Still as planned: a %1 of %2</source>
        <translation>与计划一致：%1，大小 %2</translation>
    </message>
    <message>
        <source>Still as planned: more than %1 in it</source>
        <translation>与计划一致：其中超过 %1</translation>
    </message>
    <message>
        <source>Still as planned: %1 in it</source>
        <translation>与计划一致：其中 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n part(s) cannot be read and will stay: %1</source>
        <translation>
            <numerusform>%n 处无法读取，将保留：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>removed %1</source>
        <translation>已删除 %1</translation>
    </message>
    <message>
        <source>cancelled: %1; the rest is still there</source>
        <translation>已取消：%1；其余仍在</translation>
    </message>
    <message>
        <source>%1 is gone; the NAS&apos;s free space could not be read</source>
        <translation>%1 已不存在；无法读取 NAS 的可用空间</translation>
    </message>
    <message>
        <source>%1 is gone, but %2&apos;s free space did not grow (%3 before, %4 after): the files may have been sparse, may still be open in a process (their space returns when it closes them), or a snapshot keeps them</source>
        <translation>%1 已不存在，但 %2 的可用空间没有增加（之前 %3，之后 %4）：这些文件可能是稀疏文件，可能仍被某个进程打开（进程关闭后空间才会释放），或被快照保留</translation>
    </message>
    <message>
        <source>%1 is gone; %2 has %3 free (%4 more than before)</source>
        <translation>%1 已不存在；%2 可用 %3（比之前多 %4）</translation>
    </message>
    <message>
        <source>%1 is now a %2, not the %3 planned: not touched</source>
        <translation>%1 现在是%2，而不是计划中的%3：未作改动</translation>
    </message>
    <message>
        <source>%1 changed since the plan (%2, planned at %3): not touched</source>
        <translation>%1 在计划后已变化（%2，计划时为 %3）：未作改动</translation>
    </message>
    <message>
        <source>%1 changed since the plan (at %2): not touched</source>
        <translation>%1 在计划后已变化（于 %2）：未作改动</translation>
    </message>
    <message>
        <source>removed %1 so far</source>
        <translation>已删除 %1</translation>
    </message>
    <message>
        <source>%1 is not there any more: nothing done</source>
        <translation>%1 已不存在：未作任何操作</translation>
    </message>
    <message numerus="yes">
        <source>%n folder(s)</source>
        <translation>
            <numerusform>%n 个文件夹</numerusform>
        </translation>
    </message>
    <message>
        <source>the NAS does not show %1 yet</source>
        <translation>NAS 尚未显示 %1</translation>
    </message>
    <message>
        <source>the NAS still shows %1</source>
        <translation>NAS 仍显示 %1</translation>
    </message>
    <message>
        <source>cancelled before anything was removed</source>
        <translation>已取消，未删除任何内容</translation>
    </message>
    <message numerus="yes">
        <source>%1; the rest stays, %n problem(s): %2</source>
        <translation>
            <numerusform>%1；其余保留，%n 个问题：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelled before it acted</source>
        <translation>已在执行前取消</translation>
    </message>
    <message>
        <source>waiting for %1&apos;s files session (a copy or a listing holds it)</source>
        <translation>正在等待 %1 的文件会话（正被复制或列目录占用）</translation>
    </message>
    <message>
        <source>%1 is gone (through a dev environment the NAS&apos;s free space is not read: a node&apos;s df tells it)</source>
        <translation>%1 已删除（通过开发环境无法读取 NAS 的可用空间：需在节点上用 df 查看）</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
</context>
<context>
    <name>gpudesk::NewJobDialog</name>
    <message>
        <source>Always pull the image</source>
        <translation>总是拉取镜像</translation>
    </message>
    <message>
        <source>Pin the pods to the nodes proposed</source>
        <translation>将 Pod 固定到建议的节点</translation>
    </message>
    <message>
        <source>Submit…</source>
        <translation>提交…</translation>
    </message>
    <message>
        <source>New training job</source>
        <translation>新建训练作业</translation>
    </message>
    <message>
        <source>lower-case letters, digits and &apos;-&apos;</source>
        <translation>小写字母、数字和“-”</translation>
    </message>
    <message>
        <source>torchrun --nproc_per_node=8 train.py --config cfg.yaml</source>
        <translation>torchrun --nproc_per_node=8 train.py --config cfg.yaml</translation>
    </message>
    <message>
        <source>/dev/shm, in memory: PyTorch DataLoader workers pass batches through it and crash with a bus error at the default 64 MiB. It counts against the memory limit.</source>
        <translation>/dev/shm（内存盘）：PyTorch DataLoader 的 worker 经由它传递批次数据，默认 64 MiB 时会因 bus error 崩溃。它计入内存上限。</translation>
    </message>
    <message>
        <source>default</source>
        <translation>default</translation>
    </message>
    <message>
        <source>a PriorityClass (optional)</source>
        <translation>PriorityClass（可选）</translation>
    </message>
    <message>
        <source>NAME=value, one a line</source>
        <translation>NAME=value，每行一个</translation>
    </message>
    <message>
        <source>/mnt/user/NAME, /mnt/share/GROUP, or CLAIM:/path — one a line</source>
        <translation>/mnt/user/NAME、/mnt/share/GROUP 或 CLAIM:/path，每行一个</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <source>Where the scheduler would scatter, the check proposes the tightest fit that keeps whole nodes whole; pinned, the pods go only there.</source>
        <translation>调度器可能把 Pod 打散；检查会建议最紧凑的放置，尽量保留整机空闲。固定后，Pod 只会调度到这些节点。</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每节点 GPU</translation>
    </message>
    <message>
        <source>CPU per node</source>
        <translation>每节点 CPU</translation>
    </message>
    <message>
        <source>Memory per node</source>
        <translation>每节点内存</translation>
    </message>
    <message>
        <source>Shared memory</source>
        <translation>共享内存</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>VC</source>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>运行时限</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>表单</translation>
    </message>
    <message>
        <source>YAML</source>
        <translation>YAML</translation>
    </message>
    <message>
        <source>Will it start?</source>
        <translation>能否启动？</translation>
    </message>
    <message>
        <source>%1 gives the pods: %2</source>
        <translation>%1 为 Pod 提供：%2</translation>
    </message>
    <message>
        <source>The YAML was edited: it is what will be submitted, and the form no longer writes it.</source>
        <translation>YAML 已被手动修改：提交的将是这份 YAML，表单不再生成它。</translation>
    </message>
    <message>
        <source>It would never start as it is: see why beside the form.</source>
        <translation>按现在的配置永远无法启动：原因见表单右侧。</translation>
    </message>
    <message>
        <source>Save as template…</source>
        <translation>另存为模板…</translation>
    </message>
    <message>
        <source>Delete template</source>
        <translation>删除模板</translation>
    </message>
    <message>
        <source>A template of yours, or a copy of a job of the namespace: the form takes what it can hold, the YAML tab the rest.</source>
        <translation>你的模板，或该命名空间中某个作业的副本：表单接收它能表达的部分，其余由 YAML 标签页承载。</translation>
    </message>
    <message>
        <source>Keep this job, as its YAML, to start the next one from: in %1</source>
        <translation>将此作业以 YAML 形式保存，作为下一个作业的起点：保存在 %1</translation>
    </message>
    <message>
        <source>Start from</source>
        <translation>起点</translation>
    </message>
    <message>
        <source>A blank form</source>
        <translation>空白表单</translation>
    </message>
    <message>
        <source>Template: %1</source>
        <translation>模板：%1</translation>
    </message>
    <message>
        <source>Copy of %1 %2</source>
        <translation>%1 %2 的副本</translation>
    </message>
    <message>
        <source>Start again</source>
        <translation>重新开始</translation>
    </message>
    <message>
        <source>Replace what you entered with %1?</source>
        <translation>用%1替换你已输入的内容吗？</translation>
    </message>
    <message>
        <source>The template is empty.</source>
        <translation>模板为空。</translation>
    </message>
    <message>
        <source>the template %1</source>
        <translation>模板 %1</translation>
    </message>
    <message>
        <source>a copy of %1 %2</source>
        <translation>%1 %2 的副本</translation>
    </message>
    <message>
        <source>Reading %1 %2 from the cluster…</source>
        <translation>正在从集群读取 %1 %2…</translation>
    </message>
    <message>
        <source>Cannot copy %1 %2: %3</source>
        <translation>无法复制 %1 %2：%3</translation>
    </message>
    <message>
        <source>Started from %1.</source>
        <translation>已从%1开始。</translation>
    </message>
    <message>
        <source>the form has no place for %1</source>
        <translation>表单无法表达 %1</translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> 等另外 %n 处</numerusform>
        </translation>
    </message>
    <message>
        <source>Started from %1, which the form cannot hold whole (%2): the YAML is what will be submitted; edit it there.</source>
        <translation>已从%1开始，但表单无法完整表达它（%2）：将提交的是 YAML，请在 YAML 标签页中编辑。</translation>
    </message>
    <message>
        <source>Save as template</source>
        <translation>另存为模板</translation>
    </message>
    <message>
        <source>Name of the template:</source>
        <translation>模板名称：</translation>
    </message>
    <message>
        <source>Replace the template %1?</source>
        <translation>替换模板 %1 吗？</translation>
    </message>
    <message>
        <source>Saved as the template %1.</source>
        <translation>已另存为模板 %1。</translation>
    </message>
    <message>
        <source>Delete the template %1? The form keeps what it shows.</source>
        <translation>删除模板 %1 吗？表单中显示的内容会保留。</translation>
    </message>
    <message>
        <source>%1 %2 was read, but you typed meanwhile: your text is kept. Choose it again to start from it.</source>
        <translation>已读取 %1 %2，但你在此期间进行了输入：已保留你输入的内容。如需从它开始，请再次选择。</translation>
    </message>
    <message>
        <source>a value the form&apos;s fields cannot hold as it is</source>
        <translation>某个值超出了表单字段能原样表达的范围</translation>
    </message>
    <message>
        <source>No class: priority 0, or the cluster&apos;s default class</source>
        <translation>不指定优先级类：优先级为 0，或使用集群的默认优先级类</translation>
    </message>
    <message>
        <source>%1 — never preempts: %2</source>
        <translation>%1 —— 从不抢占：%2</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>A PriorityClass: a job of higher priority may preempt jobs of lower priority in its queue</source>
        <translation>优先级类：优先级更高的作业可以抢占其队列中优先级更低的作业</translation>
    </message>
    <message>
        <source>The cluster&apos;s PriorityClasses could not be read: %1</source>
        <translation>无法读取集群的优先级类：%1</translation>
    </message>
    <message>
        <source>VIP machines</source>
        <translation>VIP 机器</translation>
    </message>
</context>
<context>
    <name>gpudesk::NodeAccess</name>
    <message>
        <source>Node telemetry is off.</source>
        <translation>节点遥测已关闭。</translation>
    </message>
    <message>
        <source>Not saved in the system keychain: %1. It is kept for this session.</source>
        <translation>未能保存到系统钥匙串：%1。本次会话中仍会使用。</translation>
    </message>
</context>
<context>
    <name>gpudesk::NodeCardsModel</name>
    <message>
        <source>MIG: %1 (%2 in use)</source>
        <translation>MIG：%1（%2 个在用）</translation>
    </message>
    <message>
        <source>phantom memory</source>
        <translation>幽灵显存</translation>
    </message>
    <message>
        <source>process of no pod</source>
        <translation>无归属 Pod 的进程</translation>
    </message>
    <message>
        <source>pod not visible to you</source>
        <translation>Pod 对你不可见</translation>
    </message>
    <message numerus="yes">
        <source>%n ECC error(s)</source>
        <translation>
            <numerusform>%n 个 ECC 错误</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 / %2 MiB</source>
        <translation>%1 / %2 MiB</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Utilization</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>Temp.</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程数</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存占用</translation>
    </message>
</context>
<context>
    <name>gpudesk::NodePodsModel</name>
    <message>
        <source>Pod</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>CPU (cores)</source>
        <translation>CPU（核）</translation>
    </message>
    <message>
        <source>CPU requested</source>
        <translation>CPU 请求量</translation>
    </message>
    <message>
        <source>Memory (working set)</source>
        <translation>内存（工作集）</translation>
    </message>
    <message>
        <source>Memory requested</source>
        <translation>内存请求量</translation>
    </message>
</context>
<context>
    <name>gpudesk::NodeProcessesModel</name>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>— pod not visible to you</source>
        <translation>— Pod 对你不可见</translation>
    </message>
    <message>
        <source>— host process, no pod</source>
        <translation>— 宿主机进程，不属于任何 Pod</translation>
    </message>
    <message>
        <source>— pod %1 no longer exists</source>
        <translation>— Pod %1 已不存在</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存占用</translation>
    </message>
    <message>
        <source>Pod</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>VC</source>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
</context>
<context>
    <name>gpudesk::NodeTelemetryPanel</name>
    <message>
        <source>Trust once</source>
        <translation>仅信任本次</translation>
    </message>
    <message>
        <source>Trust and remember</source>
        <translation>信任并记住</translation>
    </message>
    <message>
        <source>Enter passphrase…</source>
        <translation>输入口令…</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>立即重试</translation>
    </message>
    <message>
        <source>Connected over SSH; last sample %1 s ago, answered in %2 ms.</source>
        <translation>已通过 SSH 连接；上次采样在 %1 秒前，响应耗时 %2 毫秒。</translation>
    </message>
    <message>
        <source>Connected over SSH.</source>
        <translation>已通过 SSH 连接。</translation>
    </message>
    <message>
        <source>The node has stopped answering.</source>
        <translation>节点已停止响应。</translation>
    </message>
    <message>
        <source>Connecting over SSH…</source>
        <translation>正在通过 SSH 连接…</translation>
    </message>
    <message>
        <source>Unreachable since %1. %2</source>
        <translation>自 %1 起无法连接。%2</translation>
    </message>
    <message>
        <source>Select a node.</source>
        <translation>请选择一个节点。</translation>
    </message>
    <message>
        <source>Enter password…</source>
        <translation>输入密码…</translation>
    </message>
    <message numerus="yes">
        <source>CPU %1 % of %n core(s)</source>
        <translation>
            <numerusform>CPU %1 %（共 %n 核）</numerusform>
        </translation>
    </message>
    <message>
        <source>memory %1 of %2 used</source>
        <translation>内存已用 %1 / %2</translation>
    </message>
    <message>
        <source>load %1 / %2 / %3</source>
        <translation>负载 %1 / %2 / %3</translation>
    </message>
    <message>
        <source>no nvidia-smi (a CPU node)</source>
        <translation>没有 nvidia-smi（CPU 节点）</translation>
    </message>
    <message>
        <source>nvidia-smi finds no GPU</source>
        <translation>nvidia-smi 未找到 GPU</translation>
    </message>
    <message>
        <source>nvidia-smi failed: %1</source>
        <translation>nvidia-smi 执行失败：%1</translation>
    </message>
    <message>
        <source>%1 %2 % used (%3 free)</source>
        <translation>%1 已用 %2 %（剩余 %3）</translation>
    </message>
    <message>
        <source>nearly full</source>
        <translation>即将写满</translation>
    </message>
    <message>
        <source>Disks: %1</source>
        <translation>磁盘：%1</translation>
    </message>
    <message>
        <source>Review all unknown host keys…</source>
        <translation>查看所有未知的主机密钥…</translation>
    </message>
    <message>
        <source>GPU processes</source>
        <translation>GPU 进程</translation>
    </message>
    <message>
        <source>Pods: CPU and memory</source>
        <translation>Pod：CPU 与内存</translation>
    </message>
    <message numerus="yes">
        <source>End %n process(es)…</source>
        <translation>
            <numerusform>结束 %n 个进程…</numerusform>
        </translation>
    </message>
    <message>
        <source>Live figures over SSH are off: gpudesk was started with --no-ssh. Start it without that option to see this node&apos;s cards, processes and load.</source>
        <translation>经 SSH 的实时数据已关闭：gpudesk 以 --no-ssh 启动。去掉该选项再启动，即可看到此节点的显卡、进程和负载。</translation>
    </message>
</context>
<context>
    <name>gpudesk::NodesModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>GPU model</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <source>GPUs used</source>
        <translation>已用 GPU</translation>
    </message>
    <message>
        <source>CPU requested</source>
        <translation>CPU 请求量</translation>
    </message>
    <message>
        <source>Memory requested</source>
        <translation>内存请求量</translation>
    </message>
    <message>
        <source>Pods</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Taints</source>
        <translation>污点</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>存在时长</translation>
    </message>
    <message numerus="yes">
        <source>The API counts %n GPU(s) but nvidia-smi fails: %1</source>
        <translation>
            <numerusform>API 记录了 %n 张 GPU，但 nvidia-smi 执行失败：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>无应答</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU process(es) of no live pod</source>
        <translation>
            <numerusform>%n 个 GPU 进程不属于任何存活的 Pod</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n card(s) with phantom memory (held, no process)</source>
        <translation>
            <numerusform>%n 张卡存在幽灵显存（显存被占用但无进程）</numerusform>
        </translation>
    </message>
    <message>
        <source>disk %1 %2 % full</source>
        <translation>磁盘 %1 已用 %2 %</translation>
    </message>
    <message>
        <source>Your own pods&apos; requests only: other users&apos; pods are not visible to you.</source>
        <translation>仅包含你自己 Pod 的请求量：其他用户的 Pod 对你不可见。</translation>
    </message>
    <message>
        <source>At least %1: your pods hold %2 and %3 card(s) run processes of pods not visible to you; other users&apos; allocations are not visible.</source>
        <translation>至少 %1：你的 Pod 占用 %2 张，另有 %3 张卡运行着你看不到的 Pod 的进程；其他用户的分配情况不可见。</translation>
    </message>
    <message>
        <source>unreachable over SSH since %1</source>
        <translation>自 %1 起 SSH 无法访问</translation>
    </message>
</context>
<context>
    <name>gpudesk::NodesPage</name>
    <message>
        <source>Pod</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>存在时长</translation>
    </message>
    <message>
        <source>Condition</source>
        <translation>状况</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Filter nodes by name, status, model, IP or taint</source>
        <translation>按名称、状态、型号、IP 或污点筛选节点</translation>
    </message>
    <message>
        <source>Only nodes with problems</source>
        <translation>仅显示有问题的节点</translation>
    </message>
    <message>
        <source>Pods</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Conditions</source>
        <translation>状况</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Select a node to see its pods, conditions, labels and events.</source>
        <translation>选择一个节点以查看其 Pod、状况、标签和事件。</translation>
    </message>
    <message>
        <source>%1 — %2, %3 of %4 GPUs allocated, %5, kubelet %6</source>
        <translation>%1 — %2，已分配 %3/%4 张 GPU，%5，kubelet %6</translation>
    </message>
    <message>
        <source>no address</source>
        <translation>无地址</translation>
    </message>
    <message>
        <source>Live (SSH)</source>
        <translation>实时（SSH）</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <source>Logs, events, YAML…</source>
        <translation>日志、事件、YAML…</translation>
    </message>
    <message>
        <source>Uncordon %1</source>
        <translation>解除封锁 %1</translation>
    </message>
    <message>
        <source>Cordon %1</source>
        <translation>封锁 %1</translation>
    </message>
    <message>
        <source>Drain %1…</source>
        <translation>排空 %1…</translation>
    </message>
    <message>
        <source>%1 %2 is not allowed</source>
        <translation>不允许 %1 %2</translation>
    </message>
    <message>
        <source>%1 (not allowed: %2)</source>
        <translation>%1（无权限：%2）</translation>
    </message>
    <message>
        <source>No node selected</source>
        <translation>未选择节点</translation>
    </message>
    <message>
        <source>ended from the Nodes page</source>
        <translation>从节点页面结束</translation>
    </message>
    <message>
        <source>drained from the Nodes page</source>
        <translation>从节点页面排空</translation>
    </message>
    <message>
        <source>Release %1 (reserved for the VIP job %2)</source>
        <translation>释放 %1（为 VIP 作业 %2 保留）</translation>
    </message>
</context>
<context>
    <name>gpudesk::ObjectService</name>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>Cannot fetch the object: %1</source>
        <translation>无法获取对象：%1</translation>
    </message>
    <message>
        <source>Cannot show the object: %1</source>
        <translation>无法显示对象：%1</translation>
    </message>
    <message>
        <source>not an object</source>
        <translation>不是对象</translation>
    </message>
</context>
<context>
    <name>gpudesk::ObjectViewer</name>
    <message>
        <source>Show managedFields</source>
        <translation>显示 managedFields</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Nodes have no log in the Kubernetes API.</source>
        <translation>Kubernetes API 不提供节点日志。</translation>
    </message>
    <message>
        <source>Events (%1)</source>
        <translation>事件（%1）</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>YAML</source>
        <translation>YAML</translation>
    </message>
    <message>
        <source>gpudesk does not know this object&apos;s API path.</source>
        <translation>gpudesk 不知道该对象的 API 路径。</translation>
    </message>
    <message>
        <source>Fetching %1…</source>
        <translation>正在获取 %1…</translation>
    </message>
    <message>
        <source>%1, fetched at %2</source>
        <translation>%1，获取于 %2</translation>
    </message>
    <message>
        <source>Save YAML</source>
        <translation>保存 YAML</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>资源使用</translation>
    </message>
    <message>
        <source>The GPUs wait while the CPU runs at its request: the input pipeline (data loading, decoding, augmentation) is likely the bottleneck. More CPU, more DataLoader workers or pre-processed data may help.</source>
        <translation>GPU 在等待，而 CPU 已用满其请求量：输入流水线（数据加载、解码、增强）很可能是瓶颈。增加 CPU、增加 DataLoader worker 数或使用预处理好的数据可能会有帮助。</translation>
    </message>
    <message>
        <source>GPU lines are the cards this workload&apos;s processes run on; CPU and memory are its own, read from its cgroups on its nodes.</source>
        <translation>GPU 曲线是该工作负载的进程所在的卡；CPU 和内存是它自身的用量，读取自其所在节点上的 cgroup。</translation>
    </message>
    <message>
        <source>1 GPU, not sampled yet</source>
        <translation>1 块 GPU，尚未采样</translation>
    </message>
    <message>
        <source>1 GPU at %1 % on average</source>
        <translation>1 块 GPU，平均利用率 %1 %</translation>
    </message>
    <message>
        <source>%1 GPUs, not sampled yet</source>
        <translation>%1 块 GPU，尚未采样</translation>
    </message>
    <message>
        <source>%1 GPUs at %2 % on average</source>
        <translation>%1 块 GPU，平均利用率 %2 %</translation>
    </message>
    <message>
        <source>CPU %1 of %2 cores requested</source>
        <translation>CPU %1 核（请求 %2 核）</translation>
    </message>
    <message>
        <source>CPU %1 cores</source>
        <translation>CPU %1 核</translation>
    </message>
    <message>
        <source>memory %1 working set of %2 requested</source>
        <translation>内存工作集 %1（请求 %2）</translation>
    </message>
    <message>
        <source>memory %1 working set</source>
        <translation>内存工作集 %1</translation>
    </message>
    <message>
        <source>Not sampled yet: gpudesk reads a workload&apos;s own use from its nodes over SSH.</source>
        <translation>尚未采样：gpudesk 通过 SSH 从节点读取工作负载自身的用量。</translation>
    </message>
    <message>
        <source>Last 2 minutes: %1.</source>
        <translation>最近 2 分钟：%1。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Edit the object: the server checks the change and it is shown as a diff before it is applied</source>
        <translation>编辑对象：修改会先由服务器检查，并在应用前以差异形式显示</translation>
    </message>
    <message>
        <source>Diagnosis</source>
        <translation>诊断</translation>
    </message>
</context>
<context>
    <name>gpudesk::Operation</name>
    <message>
        <source>%n done</source>
        <translation>%n 个完成</translation>
    </message>
    <message>
        <source>%n unverified</source>
        <translation>%n 个未验证</translation>
    </message>
    <message>
        <source>%n skipped</source>
        <translation>%n 个跳过</translation>
    </message>
    <message>
        <source>%n refused</source>
        <translation>%n 个被拒绝</translation>
    </message>
    <message>
        <source>%n failed</source>
        <translation>%n 个失败</translation>
    </message>
    <message>
        <source>%n not run</source>
        <translation>%n 个未执行</translation>
    </message>
    <message>
        <source>%n running</source>
        <translation>%n 个执行中</translation>
    </message>
    <message>
        <source>%n waiting</source>
        <translation>%n 个等待中</translation>
    </message>
    <message>
        <source>cancelled before it started: not acted on</source>
        <translation>开始前已取消：未执行操作</translation>
    </message>
    <message>
        <source>not acted on: the step before it (%1) did not succeed</source>
        <translation>未执行操作：它依赖的前一步（%1）未成功</translation>
    </message>
    <message>
        <source>%n rolled back</source>
        <translation>%n 个已回滚</translation>
    </message>
    <message>
        <source>the operation was cancelled before this unit was complete</source>
        <translation>该单元完成前操作被取消</translation>
    </message>
    <message>
        <source>step %1 (%2) of this unit did not succeed</source>
        <translation>该单元的第 %1 步（%2）未成功</translation>
    </message>
    <message>
        <source>not run: %1</source>
        <translation>未执行：%1</translation>
    </message>
    <message>
        <source>made, then deleted again: %1</source>
        <translation>已创建，随后又被删除：%1</translation>
    </message>
    <message>
        <source>made; deleting it again failed (%1): delete %2 by hand</source>
        <translation>已创建；回滚删除失败（%1）：请手动删除 %2</translation>
    </message>
    <message>
        <source>refused by the server&apos;s check, so not sent: %1</source>
        <translation>服务器预检拒绝，因此未发送：%1</translation>
    </message>
    <message>
        <source>was refused by the server&apos;s check (%1)</source>
        <translation>被服务器预检拒绝（%1）</translation>
    </message>
    <message>
        <source>ended %1 (%2)</source>
        <translation>结果为 %1（%2）</translation>
    </message>
    <message>
        <source>not acted on: step %1 for the same finding (%2) %3</source>
        <translation>未执行：同一发现的第 %1 步（%2）%3</translation>
    </message>
</context>
<context>
    <name>gpudesk::OperationDialog</name>
    <message>
        <source>Run</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>Cancel the rest</source>
        <translation>取消剩余步骤</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>%v of %m steps</source>
        <translation>%v / %m 个步骤</translation>
    </message>
    <message>
        <source>This plan forces things (grace period 0, KILL, eviction). </source>
        <translation>此计划包含强制操作（宽限期 0、KILL、驱逐）。</translation>
    </message>
    <message>
        <source>Type %1 to confirm:</source>
        <translation>输入 %1 以确认：</translation>
    </message>
    <message>
        <source>Hide (keeps running)</source>
        <translation>隐藏（继续执行）</translation>
    </message>
    <message>
        <source>Nothing to do.</source>
        <translation>无事可做。</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s), %1 GPUs. Asking the server and the nodes what each step would do… (%2 of %n)</source>
        <translation>
            <numerusform>共 %n 个步骤，涉及 %1 块 GPU。正在向服务器和节点确认每个步骤的效果…（%2 / %n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s), %1 GPUs. Nothing has been done yet.</source>
        <translation>
            <numerusform>共 %n 个步骤，涉及 %1 块 GPU。尚未执行任何操作。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) would be refused as planned: they will be tried and their refusal reported.</source>
        <translation>
            <numerusform>按计划有 %n 个步骤会被拒绝：仍会尝试执行并报告拒绝原因。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling: the steps in flight finish, no more start. %1</source>
        <translation>正在取消：进行中的步骤会完成，不再开始新步骤。%1</translation>
    </message>
    <message>
        <source>Running: %1</source>
        <translation>执行中：%1</translation>
    </message>
    <message>
        <source>Cancelled: %1</source>
        <translation>已取消：%1</translation>
    </message>
    <message>
        <source>Finished: %1</source>
        <translation>已完成：%1</translation>
    </message>
    <message>
        <source>Select a step to read it whole.</source>
        <translation>选择一个步骤以查看其完整内容。</translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <source>Request: %1</source>
        <translation>请求：%1</translation>
    </message>
    <message>
        <source>Checked beforehand: %1</source>
        <translation>事先检查：%1</translation>
    </message>
    <message>
        <source>Result: %1</source>
        <translation>结果：%1</translation>
    </message>
    <message>
        <source>Verified: %1</source>
        <translation>已验证：%1</translation>
    </message>
    <message>
        <source>This cannot be done as asked: nothing was sent.</source>
        <translation>无法按要求执行：未发送任何请求。</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s). Checking what each step would do… (%1 of %n)</source>
        <translation>
            <numerusform>%n 个步骤。正在检查每个步骤将做什么…（%1/%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s). Nothing has been done yet.</source>
        <translation>
            <numerusform>%n 个步骤。尚未执行任何操作。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not selected by you, and touched by this plan:</source>
        <translation>您未选中、但本计划会影响的：</translation>
    </message>
</context>
<context>
    <name>gpudesk::OperationPlan</name>
    <message>
        <source>PID %1 on %2</source>
        <translation>%2 上的 PID %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n GPU(s)</source>
        <translation>
            <numerusform>%1 — %n 张 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on the NAS</source>
        <translation>NAS 上的 %1</translation>
    </message>
</context>
<context>
    <name>gpudesk::OperationStepsModel</name>
    <message>
        <source>Running…</source>
        <translation>执行中…</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Done, not verified</source>
        <translation>已完成，未验证</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>被拒绝</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Not run (cancelled)</source>
        <translation>未执行（已取消）</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>检查中…</translation>
    </message>
    <message>
        <source>Still there</source>
        <translation>仍然存在</translation>
    </message>
    <message>
        <source>The server would accept it</source>
        <translation>服务器会接受</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>被拒绝：%1</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Checked beforehand</source>
        <translation>事先检查</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Verified</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Rolled back</source>
        <translation>已回滚</translation>
    </message>
    <message>
        <source>Checked when it runs</source>
        <translation>执行时检查</translation>
    </message>
</context>
<context>
    <name>gpudesk::OperationsService</name>
    <message>
        <source>(no user)</source>
        <translation>（无用户）</translation>
    </message>
    <message>
        <source>anonymous</source>
        <translation>匿名</translation>
    </message>
    <message>
        <source>%1@%2, by %3</source>
        <translation>%1@%2，由 %3 操作</translation>
    </message>
</context>
<context>
    <name>gpudesk::OverviewPage</name>
    <message>
        <source>GPUs in the cluster</source>
        <translation>集群 GPU 总数</translation>
    </message>
    <message>
        <source>GPUs allocated</source>
        <translation>已分配 GPU</translation>
    </message>
    <message>
        <source>GPUs free</source>
        <translation>空闲 GPU</translation>
    </message>
    <message>
        <source>GPUs wanted by pending pods</source>
        <translation>等待中 Pod 所需 GPU</translation>
    </message>
    <message>
        <source>Nodes ready</source>
        <translation>就绪节点</translation>
    </message>
    <message>
        <source>Jobs running</source>
        <translation>运行中的作业</translation>
    </message>
    <message>
        <source>This cluster has no Volcano queues (scheduling.volcano.sh), so there are no virtual clusters to show.</source>
        <translation>该集群没有 Volcano 队列（scheduling.volcano.sh），因此没有虚拟集群可显示。</translation>
    </message>
    <message>
        <source>GPUs per virtual cluster (allocated / capability)</source>
        <translation>各虚拟集群 GPU（已分配 / 上限）</translation>
    </message>
    <message>
        <source>Top users by GPUs allocated</source>
        <translation>已分配 GPU 最多的用户</translation>
    </message>
    <message>
        <source>By GPU model</source>
        <translation>按 GPU 型号</translation>
    </message>
    <message>
        <source>%1 % of all GPUs</source>
        <translation>占全部 GPU 的 %1%</translation>
    </message>
    <message>
        <source>on Ready, schedulable nodes</source>
        <translation>位于就绪且可调度的节点上</translation>
    </message>
    <message>
        <source>unknown model</source>
        <translation>未知型号</translation>
    </message>
    <message numerus="yes">
        <source>%n not ready</source>
        <translation>
            <numerusform>%n 个未就绪</numerusform>
        </translation>
    </message>
    <message>
        <source>GPU model</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>GPUs busy</source>
        <translation>忙碌的 GPU</translation>
    </message>
    <message>
        <source>%1 allocated, %2 busy (≥ %3 % utilization) on %4 sampled cards</source>
        <translation>已分配 %1 张，忙碌 %2 张（利用率 ≥ %3 %），共采样 %4 张卡</translation>
    </message>
    <message>
        <source>no node telemetry (SSH) yet</source>
        <translation>尚无节点监控数据（SSH）</translation>
    </message>
    <message>
        <source>GPUs without a working driver</source>
        <translation>驱动异常的 GPU</translation>
    </message>
    <message>
        <source>Your account may list pods only in namespace %1. Other users&apos; allocations are not visible to you: allocated GPUs are at least what your pods, the cards in use and the VCs&apos; status show, free GPUs at most what that leaves, and the top users are hidden.</source>
        <translation>你的账号只能列出命名空间 %1 中的 Pod。其他用户的分配情况对你不可见：已分配 GPU 至少为你的 Pod、正在使用的卡以及 VC 状态所显示的数量，空闲 GPU 至多为剩余数量，用户排行已隐藏。</translation>
    </message>
    <message>
        <source>%1 yours</source>
        <translation>你的 %1 张</translation>
    </message>
    <message>
        <source>%1 cards in use by pods not visible to you</source>
        <translation>%1 张卡被你看不到的 Pod 占用</translation>
    </message>
    <message>
        <source>%1 by the VCs&apos; status</source>
        <translation>VC 状态显示 %1 张</translation>
    </message>
    <message>
        <source>GPUs allocated (at least)</source>
        <translation>已分配 GPU（至少）</translation>
    </message>
    <message>
        <source>GPUs free (at most)</source>
        <translation>空闲 GPU（至多）</translation>
    </message>
    <message>
        <source>others&apos; pods are not visible to you</source>
        <translation>其他人的 Pod 对你不可见</translation>
    </message>
    <message>
        <source>the API counts them; nvidia-smi fails on %1</source>
        <translation>API 计入了这些 GPU；nvidia-smi 在 %1 上执行失败</translation>
    </message>
    <message>
        <source>GPUs wanted by your pending pods</source>
        <translation>你的等待中 Pod 所需 GPU</translation>
    </message>
    <message>
        <source>Your jobs running</source>
        <translation>你运行中的任务</translation>
    </message>
    <message numerus="yes">
        <source>and %n MIG instance(s), %1 allocated</source>
        <translation>
            <numerusform>另有 %n 个 MIG 实例，已分配 %1 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s) hold %1 GPUs that should be free (idle, of no pod, stuck) — review them in Cleanup</source>
        <translation>
            <numerusform>%n 项问题占用了本应空闲的 %1 块 GPU（闲置、无主、卡住）—— 前往“清理”查看</numerusform>
        </translation>
    </message>
    <message>
        <source>Needs attention</source>
        <translation>需要关注</translation>
    </message>
    <message>
        <source>Nothing needs attention: every node Ready, without pressure and answering; no disk over %1 %, no card too hot or with ECC errors.</source>
        <translation>无需关注：所有节点 Ready、无资源压力且响应正常；没有磁盘超过 %1 %，没有显卡过热或出现 ECC 错误。</translation>
    </message>
    <message>
        <source>Nothing needs attention: every node Ready and without pressure. (Disks and cards are checked where node telemetry is on.)</source>
        <translation>无需关注：所有节点 Ready 且无资源压力。（开启节点遥测后还会检查磁盘与显卡。）</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Acknowledge all</source>
        <translation>全部确认</translation>
    </message>
    <message>
        <source>Acknowledged alerts stay quiet until their condition clears and returns.</source>
        <translation>已确认的告警保持静默，直到其状况消除后再次出现。</translation>
    </message>
    <message>
        <source>since %1</source>
        <translation>自 %1 起</translation>
    </message>
    <message>
        <source>acknowledged</source>
        <translation>已确认</translation>
    </message>
    <message>
        <source>Acknowledge</source>
        <translation>确认</translation>
    </message>
    <message>
        <source>GPUs allocated and busy</source>
        <translation>GPU 分配与繁忙</translation>
    </message>
    <message>
        <source>%1 waiting (%2 stuck) · %3 failed · %4 finished</source>
        <translation>%1 个等待（其中 %2 个卡住）· %3 个失败 · %4 个已结束</translation>
    </message>
    <message>
        <source>%1 waiting · %3 failed · %4 finished</source>
        <translation>%1 个等待 · %3 个失败 · %4 个已结束</translation>
    </message>
    <message>
        <source>no connection</source>
        <translation>无连接</translation>
    </message>
    <message>
        <source>Checking the alert rules on the figures just read…</source>
        <translation>正在用刚读取的数据检查告警规则…</translation>
    </message>
</context>
<context>
    <name>gpudesk::PodExec</name>
    <message>
        <source>The command&apos;s stream ended without its exit status.</source>
        <translation>命令的数据流已结束，但没有返回退出状态。</translation>
    </message>
    <message>
        <source>The exit status could not be read: %1</source>
        <translation>无法读取退出状态：%1</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>The input ended; the server speaks v4.channel.k8s.io, which can only say so by closing the stream: the command&apos;s exit status is not known.</source>
        <translation>输入已结束；服务器使用 v4.channel.k8s.io，只能通过关闭流来表示这一点：命令的退出码无法得知。</translation>
    </message>
</context>
<context>
    <name>gpudesk::PodFileClient</name>
    <message>
        <source>%1 is not in a folder %2 mounts (%3).</source>
        <translation>%1 不在 %2 挂载的文件夹中（%3）。</translation>
    </message>
    <message>
        <source>%1: the dev environment&apos;s image lacks a tool gpudesk needs (find, tail, dd, mkdir, mv): %2</source>
        <translation>%1：开发环境的镜像缺少 gpudesk 所需的工具（find、tail、dd、mkdir、mv）：%2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: the command ended with status %2</source>
        <translation>%1：命令以状态 %2 结束</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>%1: find&apos;s answer could not be read.</source>
        <translation>%1：无法解析 find 的输出。</translation>
    </message>
    <message>
        <source>%1 is not a plain file: only files are copied.</source>
        <translation>%1 不是普通文件：只复制文件。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 here is longer than %2 on the NAS: not gone on with.</source>
        <translation>本地的 %1 比 NAS 上的 %2 更长：不再续传。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is there and is not a plain file: nothing was written.</source>
        <translation>%1 已存在且不是普通文件：未写入任何内容。</translation>
    </message>
    <message>
        <source>%1 on the NAS is longer than %2: not gone on with.</source>
        <translation>NAS 上的 %1 比 %2 更长：不再续传。</translation>
    </message>
    <message>
        <source>%1: %2 bytes on the NAS of %3</source>
        <translation>%1：NAS 上只有 %2 字节，应为 %3 字节</translation>
    </message>
    <message>
        <source>%1 is there already: nothing was replaced.</source>
        <translation>%1 已存在：未替换任何内容。</translation>
    </message>
    <message>
        <source>%1 is still there: it was not renamed to %2.</source>
        <translation>%1 仍在原处：未能重命名为 %2。</translation>
    </message>
    <message>
        <source>%1 is not a plain file.</source>
        <translation>%1 不是普通文件。</translation>
    </message>
    <message>
        <source>%1 is reached through a link (the container reads it as %2): not acted on</source>
        <translation>%1 经由链接到达（容器将其解析为 %2）：未执行操作</translation>
    </message>
    <message>
        <source>%1 lies under another volume mounted in %2: it is not reached as the NAS.</source>
        <translation>%1 位于 %2 中挂载的另一个卷之下：不会作为 NAS 访问。</translation>
    </message>
    <message>
        <source>%1 said nothing for %2 s: given up (the command may still run in the container).</source>
        <translation>%1 在 %2 秒内没有任何响应：已放弃（该命令可能仍在容器中运行）。</translation>
    </message>
    <message>
        <source>%1 and %2 are on two mounts of %3: not renamed (a copy and a removal would be).</source>
        <translation>%1 和 %2 位于 %3 的两个不同挂载上：未重命名（那将变成复制再删除）。</translation>
    </message>
</context>
<context>
    <name>gpudesk::PodHttp</name>
    <message>
        <source>%1 closed the connection before answering %2.</source>
        <translation>%1 在应答 %2 之前关闭了连接。</translation>
    </message>
    <message>
        <source>%1 answered with more than %2 MiB.</source>
        <translation>%1 的应答超过 %2 MiB。</translation>
    </message>
    <message>
        <source>%1 did not answer %2 within %3 s.</source>
        <translation>%1 在 %3 秒内没有应答 %2。</translation>
    </message>
    <message>
        <source>port %1 of %2 said nothing within %3 s</source>
        <translation>%2 的端口 %1 在 %3 秒内没有任何输出</translation>
    </message>
    <message>
        <source>port %1 of %2 closed without a word</source>
        <translation>%2 的端口 %1 未作任何应答就关闭了</translation>
    </message>
    <message>
        <source>%1 did not answer %2 in HTTP.</source>
        <translation>%1 没有以 HTTP 应答 %2。</translation>
    </message>
</context>
<context>
    <name>gpudesk::PodNasMounts</name>
    <message>
        <source>%1 did not answer in 30 s.</source>
        <translation>%1 在 30 秒内没有响应。</translation>
    </message>
    <message>
        <source>%1 no longer runs with a folder of the NAS (%2) mounted.</source>
        <translation>%1 已不再以挂载 NAS 文件夹（%2）的状态运行。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
</context>
<context>
    <name>gpudesk::PodServerStarter</name>
    <message>
        <source>%1 is not installed in the image of %2 (%3).</source>
        <translation>%2 的镜像中没有安装 %1（%3）。</translation>
    </message>
    <message>
        <source>Starting %1 in %2 ended with exit code %3: %4</source>
        <translation>在 %2 中启动 %1 以退出码 %3 结束：%4</translation>
    </message>
    <message>
        <source>%1 is starting in %2…</source>
        <translation>%1 正在 %2 中启动…</translation>
    </message>
    <message>
        <source>No %1 runs in %2: starting one…</source>
        <translation>%2 中没有运行 %1：正在启动一个…</translation>
    </message>
    <message>
        <source>%1 did not answer in %2 within %3 s; its log is /tmp/gpudesk-%4.log in the pod.</source>
        <translation>%2 中的 %1 在 %3 秒内没有应答；其日志在 Pod 内的 /tmp/gpudesk-%4.log。</translation>
    </message>
    <message>
        <source>Port %1 of %2 answers already: opening what runs there. To read another folder, stop it first.</source>
        <translation>%2 的端口 %1 已有服务应答：将打开正在运行的服务。若要读取其他目录，请先停止它。</translation>
    </message>
</context>
<context>
    <name>gpudesk::PodWebSocket</name>
    <message>
        <source>The stream stopped answering (no answer to pings for %1 s).</source>
        <translation>数据流已无响应（%1 秒内没有回应心跳）。</translation>
    </message>
    <message>
        <source>The stream was cut (%1).</source>
        <translation>数据流被切断（%1）。</translation>
    </message>
    <message>
        <source>The stream was cut: %1</source>
        <translation>数据流被切断：%1</translation>
    </message>
    <message>
        <source>Could not open a stream to the API server: %1</source>
        <translation>无法与 API 服务器建立数据流：%1</translation>
    </message>
    <message>
        <source>Pod %1 is not in %2 any more.</source>
        <translation>Pod %1 已不在 %2 中。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>The API server refused to let you forward ports to pod %1 in %2 (HTTP 403: pods/portforward create is not allowed for you there).</source>
        <translation>API 服务器拒绝你向 %2 中的 Pod %1 转发端口（HTTP 403：你在该处没有 pods/portforward 的 create 权限）。</translation>
    </message>
    <message>
        <source>The API server refused to let you run commands in pod %1 in %2 (HTTP 403: pods/exec create is not allowed for you there).</source>
        <translation>API 服务器拒绝你在 %2 中的 Pod %1 里执行命令（HTTP 403：你在该处没有 pods/exec 的 create 权限）。</translation>
    </message>
    <message>
        <source>Cannot forward a port to pod %1: it is %2, not running.</source>
        <translation>无法向 Pod %1 转发端口：它处于 %2 状态，未在运行。</translation>
    </message>
    <message>
        <source>Cannot run a command in pod %1: it is %2, not running.</source>
        <translation>无法在 Pod %1 中执行命令：它处于 %2 状态，未在运行。</translation>
    </message>
    <message>
        <source>The API server refused to forward a port to pod %1 (%2).</source>
        <translation>API 服务器拒绝向 Pod %1 转发端口（%2）。</translation>
    </message>
    <message>
        <source>The API server refused to run a command in pod %1 (%2).</source>
        <translation>API 服务器拒绝在 Pod %1 中执行命令（%2）。</translation>
    </message>
    <message>
        <source>The API server sent more than %1 KiB in one message on the stream; exec and port-forward send 32 KiB at a time. gpudesk closed the stream.</source>
        <translation>API 服务器在数据流上一次发送了超过 %1 KiB 的消息；exec 和端口转发每次只发送 32 KiB。gpudesk 已关闭该数据流。</translation>
    </message>
</context>
<context>
    <name>gpudesk::PortForwardStream</name>
    <message>
        <source>The stream to port %1 of %2 closed before it was ready.</source>
        <translation>到 %2 的 %1 端口的数据流在就绪前就已关闭。</translation>
    </message>
    <message>
        <source>The server announced the wrong port on the stream to %1.</source>
        <translation>服务器在到 %1 的数据流上声明了错误的端口。</translation>
    </message>
</context>
<context>
    <name>gpudesk::PreemptionLog</name>
    <message>
        <source>%1&apos;s %2</source>
        <comment>user&apos;s job</comment>
        <translation>%1 的 %2</translation>
    </message>
    <message>
        <source>priority %1</source>
        <translation>优先级 %1</translation>
    </message>
    <message>
        <source>priority class %1, %2</source>
        <translation>优先级类 %1，%2</translation>
    </message>
    <message>
        <source>Preempted by %1 (%2)</source>
        <translation>被 %1 抢占（%2）</translation>
    </message>
    <message>
        <source>Preempted by %1 (queue %2, %3)</source>
        <translation>被 %1 抢占（队列 %2，%3）</translation>
    </message>
    <message>
        <source>Reclaimed by another queue</source>
        <translation>被其他队列回收</translation>
    </message>
    <message>
        <source>Preempted by a job of higher priority</source>
        <translation>被更高优先级的作业抢占</translation>
    </message>
    <message>
        <source>%1 ago on %2</source>
        <translation>%1前，在 %2 上</translation>
    </message>
    <message>
        <source>%1 ago, after %2 running on %3</source>
        <translation>%1前，在 %3 上运行了 %2 之后</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>%1前</translation>
    </message>
    <message>
        <source>Reclaimed for %1 (queue %2, below its deserved share)</source>
        <translation>为 %1 回收（队列 %2，低于其应得份额）</translation>
    </message>
</context>
<context>
    <name>gpudesk::PreemptionWatch</name>
    <message>
        <source>who took its place is not visible to you: your account may not list the pods of %1</source>
        <translation>你看不到是谁占用了它的位置：你的账号无权列出 %1 上的 Pod</translation>
    </message>
    <message>
        <source>the pods of %1 could not be read: %2</source>
        <translation>无法读取 %1 上的 Pod：%2</translation>
    </message>
    <message>
        <source>no pod of higher priority started on %1 within %2 minutes of the eviction</source>
        <translation>驱逐后 %2 分钟内，%1 上没有更高优先级的 Pod 启动</translation>
    </message>
    <message>
        <source>no pod of another queue started on %1 within %2 minutes of the eviction</source>
        <translation>驱逐后 %2 分钟内，%1 上没有其他队列的 Pod 启动</translation>
    </message>
    <message>
        <source>where it ran is no longer known: its pod and the scheduler&apos;s event are gone</source>
        <translation>已无法得知它运行在哪里：它的 Pod 和调度器的事件都已消失</translation>
    </message>
    <message>
        <source>the events could not be listed: %1</source>
        <translation>无法列出事件：%1</translation>
    </message>
</context>
<context>
    <name>gpudesk::PriorityClasses</name>
    <message>
        <source>The cluster has no PriorityClass named %1: the API server refuses the job&apos;s pods (&quot;no PriorityClass with name %1 was found&quot;), so it never starts.</source>
        <translation>集群中没有名为 %1 的 PriorityClass：API 服务器会拒绝作业的 Pod（“no PriorityClass with name %1 was found”），因此它永远不会启动。</translation>
    </message>
    <message>
        <source>Leave the priority empty: the cluster has no class a job may name.</source>
        <translation>请将优先级留空：集群中没有作业可以指定的优先级类。</translation>
    </message>
    <message>
        <source>Name one of the cluster&apos;s classes (%1), or none.</source>
        <translation>请指定集群中的某个优先级类（%1），或不指定。</translation>
    </message>
</context>
<context>
    <name>gpudesk::Problems</name>
    <message>
        <source>%1 is NotReady since %2</source>
        <translation>%1 自 %2 起处于 NotReady</translation>
    </message>
    <message>
        <source>%1 is NotReady</source>
        <translation>%1 处于 NotReady</translation>
    </message>
    <message numerus="yes">
        <source>(%n GPU(s) held by its %1 pods: lost until they go)</source>
        <translation>
            <numerusform>（其 %1 个 Pod 占用 %n 张 GPU：在它们退出前无法使用）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 reports %2</source>
        <translation>%1 报告 %2</translation>
    </message>
    <message>
        <source>%1 stopped answering over SSH at %2</source>
        <translation>%1 自 %2 起不再响应 SSH</translation>
    </message>
    <message>
        <source>%1: %2 is %3 % full (%4 GiB free)</source>
        <translation>%1：%2 已用 %3 %（剩余 %4 GiB）</translation>
    </message>
    <message numerus="yes">
        <source>%1 GPU %2: %n uncorrectable ECC error(s)</source>
        <translation>
            <numerusform>%1 的 GPU %2：%n 个不可纠正的 ECC 错误</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 GPU %2 is at %3 °C</source>
        <translation>%1 的 GPU %2 温度为 %3 °C</translation>
    </message>
    <message>
        <source>%1 reports %2 since %3</source>
        <translation>%1 自 %3 起报告 %2</translation>
    </message>
    <message>
        <source>VC %1 holds %2 of its %3 GPUs: new jobs in it wait</source>
        <translation>虚拟集群 %1 已占用其 %3 块 GPU 中的 %2 块：新作业需要等待</translation>
    </message>
    <message>
        <source>%1&apos;s pods request %2 of the %3 GPUs quota %4 allows: new pods are refused</source>
        <translation>%1 的 Pod 已申请配额 %4 允许的 %3 块 GPU 中的 %2 块：新的 Pod 会被拒绝</translation>
    </message>
    <message>
        <source>%1 is still reserved for the VIP job %2, which is %3: nothing new lands on it until it is released (Nodes page, its menu)</source>
        <translation>%1 仍为 VIP 作业 %2 保留，而该作业已是 %3 状态：解除保留前不会有新作业调度到这台机器（“节点”页，该节点的菜单）</translation>
    </message>
    <message>
        <source>%1 is still reserved for the VIP job %2, which is gone: nothing new lands on it until it is released (Nodes page, its menu)</source>
        <translation>%1 仍为 VIP 作业 %2 保留，而该作业已不存在：解除保留前不会有新作业调度到这台机器（“节点”页，该节点的菜单）</translation>
    </message>
</context>
<context>
    <name>gpudesk::ProcessKill</name>
    <message>
        <source>PID %1 has ended already: not signalled</source>
        <translation>PID %1 已结束：未发送信号</translation>
    </message>
    <message>
        <source>PID %1 now belongs to another process (started at tick %2, not %3): not signalled</source>
        <translation>PID %1 现在属于另一个进程（启动于时钟 %2，而非 %3）：未发送信号</translation>
    </message>
    <message>
        <source>PID %1 is no longer in the container planned for: not signalled</source>
        <translation>PID %1 已不在计划中的容器里：未发送信号</translation>
    </message>
    <message>
        <source>PID %1 now runs in pod %2&apos;s container: not signalled</source>
        <translation>PID %1 现在运行在 Pod %2 的容器中：未发送信号</translation>
    </message>
    <message>
        <source>PID %1 no longer uses a GPU: not signalled</source>
        <translation>PID %1 已不再使用 GPU：未发送信号</translation>
    </message>
    <message>
        <source>PID %1 is in uninterruptible sleep (D): no signal can end it; drain and reboot the node</source>
        <translation>PID %1 处于不可中断睡眠（D）：任何信号都无法结束它；请排空并重启节点</translation>
    </message>
    <message>
        <source>PID %1 is still the planned process (state %2, on GPU %3)</source>
        <translation>PID %1 仍是计划中的进程（状态 %2，位于 GPU %3）</translation>
    </message>
    <message>
        <source>sent %1; then: %2</source>
        <translation>已发送 %1；随后：%2</translation>
    </message>
    <message>
        <source>sent %1</source>
        <translation>已发送 %1</translation>
    </message>
    <message>
        <source>no signal</source>
        <translation>无信号</translation>
    </message>
    <message>
        <source>; PID %1 still runs</source>
        <translation>；PID %1 仍在运行</translation>
    </message>
    <message>
        <source>nvidia-smi still lists PID %1</source>
        <translation>nvidia-smi 仍列出 PID %1</translation>
    </message>
    <message>
        <source>PID %1 is gone</source>
        <translation>PID %1 已结束</translation>
    </message>
    <message>
        <source>PID %1 had ended already: no signal sent</source>
        <translation>PID %1 已经结束：未发送信号</translation>
    </message>
    <message>
        <source>PID %1 is gone; GPU %2 holds %3 MiB no process accounts for</source>
        <translation>PID %1 已结束；GPU %2 上有 %3 MiB 显存不属于任何进程</translation>
    </message>
    <message>
        <source>PID %1 is gone, but GPU %2 still holds %3 MiB no process accounts for</source>
        <translation>PID %1 已结束，但 GPU %2 上仍有 %3 MiB 显存不属于任何进程</translation>
    </message>
    <message>
        <source>by %1 with gpudesk</source>
        <translation>由 %1 通过 gpudesk 执行</translation>
    </message>
    <message>
        <source>PID %1 on GPU %2: %3, %4</source>
        <translation>GPU %2 上的 PID %1：%3，%4</translation>
    </message>
    <message>
        <source>no Event on the node: %1</source>
        <translation>未能在节点上记录事件：%1</translation>
    </message>
    <message>
        <source>%1 (PID %2 not signalled)</source>
        <translation>%1（未向 PID %2 发送信号）</translation>
    </message>
</context>
<context>
    <name>gpudesk::PrometheusClient</name>
    <message>
        <source>Prometheus answered something that is not JSON: %1</source>
        <translation>Prometheus 返回的内容不是 JSON：%1</translation>
    </message>
    <message>
        <source>Prometheus: %1 (%2)</source>
        <translation>Prometheus：%1（%2）</translation>
    </message>
    <message>
        <source>Prometheus answered a %1, not a range (matrix).</source>
        <translation>Prometheus 返回的是 %1，而不是区间数据（matrix）。</translation>
    </message>
    <message>
        <source>Cannot reach Prometheus at %1: %2</source>
        <translation>无法连接位于 %1 的 Prometheus：%2</translation>
    </message>
    <message>
        <source>Prometheus at %1 sent only %2 bytes in %3 s of its answer; gpudesk gave up.</source>
        <translation>%1 上的 Prometheus 在 %3 秒内只发送了 %2 字节的应答；gpudesk 已放弃。</translation>
    </message>
    <message>
        <source>Prometheus at %1 sent more than %2 MiB for one query; gpudesk stopped reading (a day of a few thousand series is far less).</source>
        <translation>%1 上的 Prometheus 为一次查询发送了超过 %2 MiB 的数据；gpudesk 已停止读取（几千条序列一天的数据也远少于此）。</translation>
    </message>
    <message>
        <source>no answer within %1 s (timed out)</source>
        <translation>%1 秒内没有应答（超时）</translation>
    </message>
</context>
<context>
    <name>gpudesk::QueueDialog</name>
    <message>
        <source>Other VCs may reclaim what it borrows</source>
        <translation>其他虚拟集群可以收回它借用的资源</translation>
    </message>
    <message>
        <source>New VC</source>
        <translation>新建虚拟集群</translation>
    </message>
    <message>
        <source>VC %1</source>
        <translation>虚拟集群 %1</translation>
    </message>
    <message>
        <source>(top level)</source>
        <translation>（顶层）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Parent</source>
        <translation>父级</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Capability (ceiling)</source>
        <translation>上限（capability）</translation>
    </message>
    <message>
        <source>Deserved (fair share)</source>
        <translation>应得（deserved，公平份额）</translation>
    </message>
    <message>
        <source>Guarantee (kept for it)</source>
        <translation>保障（guarantee，为其预留）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU cores</source>
        <translation>CPU 核数</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>Plan…</source>
        <translation>生成计划…</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a quantity (e.g. 8, 500m, 960Gi).</source>
        <translation>“%1”不是有效的数量（例如 8、500m、960Gi）。</translation>
    </message>
</context>
<context>
    <name>gpudesk::QueuesModel</name>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>VC</source>
        <comment>virtual cluster, a Volcano queue</comment>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>GPUs allocated</source>
        <translation>已分配 GPU</translation>
    </message>
    <message>
        <source>GPU capability</source>
        <translation>GPU 上限</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message numerus="yes">
        <source>Closed to new jobs; waits for its %n pod group(s) to end</source>
        <translation>
            <numerusform>不再接纳新作业；等待其 %n 个 Pod 组结束</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 running, %2 waiting</source>
        <translation>%1 个运行，%2 个等待</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>GPUs the VC&apos;s pods hold, against its capability (its ceiling)</source>
        <translation>该虚拟集群的 Pod 占用的 GPU，对比其上限</translation>
    </message>
    <message>
        <source>The GPUs it deserves: what reclaim gives back to it when others borrowed</source>
        <translation>它应得的 GPU：被其他虚拟集群借用时，回收机制会还给它的量</translation>
    </message>
    <message>
        <source>GPUs kept for it whatever other VCs need</source>
        <translation>无论其他虚拟集群需要多少都为它预留的 GPU</translation>
    </message>
    <message>
        <source>GPUs its waiting pods and jobs ask for</source>
        <translation>其等待中的 Pod 和作业所请求的 GPU</translation>
    </message>
    <message>
        <source>Pod groups (jobs) running, and waiting for admission or for nodes</source>
        <translation>运行中的 Pod 组（作业），以及等待接纳或等待节点的</translation>
    </message>
    <message>
        <source>Whether other VCs may take back what it borrowed beyond its deserved share</source>
        <translation>其他虚拟集群能否收回它超出应得份额所借用的资源</translation>
    </message>
    <message>
        <source>GPUs deserved</source>
        <translation>应得 GPU</translation>
    </message>
    <message>
        <source>GPUs guaranteed</source>
        <translation>保障 GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>GPUs wanted</source>
        <translation>需求 GPU</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>Users</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Reclaimable</source>
        <translation>可回收</translation>
    </message>
    <message>
        <source>Parent</source>
        <translation>父级</translation>
    </message>
</context>
<context>
    <name>gpudesk::QuotaDialog</name>
    <message>
        <source>Quota of %1</source>
        <translation>%1 的配额</translation>
    </message>
    <message>
        <source>&lt;b&gt;Resource&lt;/b&gt;</source>
        <translation>&lt;b&gt;资源&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;In use now&lt;/b&gt;</source>
        <translation>&lt;b&gt;当前已用&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Limit now&lt;/b&gt;</source>
        <translation>&lt;b&gt;当前限额&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;New limit&lt;/b&gt;</source>
        <translation>&lt;b&gt;新限额&lt;/b&gt;</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Plan…</source>
        <translation>生成计划…</translation>
    </message>
    <message>
        <source>%1: the new limit %2 is below the %3 in use. What runs keeps running; new pods are refused until use falls below it.</source>
        <translation>%1：新限额 %2 低于已用的 %3。正在运行的继续运行；在用量降到限额以下之前，新 Pod 会被拒绝。</translation>
    </message>
</context>
<context>
    <name>gpudesk::RegistryClient</name>
    <message>
        <source>the API version check</source>
        <translation>API 版本检查</translation>
    </message>
    <message>
        <source>the catalog</source>
        <translation>仓库目录</translation>
    </message>
    <message>
        <source>the tags of %1</source>
        <translation>%1 的标签</translation>
    </message>
    <message>
        <source>The manifest of %1 does not match its digest (%2 stated, %3 received).</source>
        <translation>%1 的清单与其摘要不符（声明为 %2，收到的是 %3）。</translation>
    </message>
    <message>
        <source>The registry did not say the digest of %1.</source>
        <translation>镜像仓库没有给出 %1 的摘要。</translation>
    </message>
    <message>
        <source>The blob %1 does not match its digest.</source>
        <translation>数据块 %1 与其摘要不符。</translation>
    </message>
    <message>
        <source>Only a digest can be deleted, not &quot;%1&quot;.</source>
        <translation>只能按摘要删除，不能删除“%1”。</translation>
    </message>
    <message>
        <source>%1 into %2</source>
        <translation>%1 挂载到 %2</translation>
    </message>
    <message>
        <source>The registry could not mount the blob (it started an upload instead).</source>
        <translation>镜像仓库无法挂载该数据块（它改为开始了一次上传）。</translation>
    </message>
    <message>
        <source>the cancelled upload</source>
        <translation>已取消的上传</translation>
    </message>
    <message>
        <source>%1 sent more than %2 KiB for %3; gpudesk stopped reading.</source>
        <translation>%1 为 %3 发送了超过 %2 KiB 的数据，gpudesk 已停止读取。</translation>
    </message>
    <message>
        <source>%1 redirected %2 more than %3 times.</source>
        <translation>%1 将 %2 重定向超过 %3 次。</translation>
    </message>
    <message>
        <source>%1 asks for a user name and password, and none is configured for it (docker login %1, or enter them in gpudesk).</source>
        <translation>%1 要求用户名和密码，但没有为它配置（请运行 docker login %1，或在 gpudesk 中输入）。</translation>
    </message>
    <message>
        <source>%1 refused access to %2 and offered no way to log in (%3).</source>
        <translation>%1 拒绝访问 %2，且未提供登录方式（%3）。</translation>
    </message>
    <message>
        <source>%1 asks for a token from &quot;%2&quot;, which is not a web address.</source>
        <translation>%1 要求从“%2”获取令牌，但这不是网址。</translation>
    </message>
    <message>
        <source>a token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <source>The token service %1 sent more than %2 KiB.</source>
        <translation>令牌服务 %1 发送了超过 %2 KiB 的数据。</translation>
    </message>
    <message>
        <source>The token service %1 of %2 refused anonymous access; log in to the registry (docker login %2, or enter a user in gpudesk).</source>
        <translation>%2 的令牌服务 %1 拒绝匿名访问；请登录镜像仓库（docker login %2，或在 gpudesk 中输入用户）。</translation>
    </message>
    <message>
        <source>The token service %1 of %2 refused the user name and password (from %3).</source>
        <translation>%2 的令牌服务 %1 拒绝了用户名和密码（来自 %3）。</translation>
    </message>
    <message>
        <source>The token service %1 answered HTTP %2 without a token.</source>
        <translation>令牌服务 %1 返回 HTTP %2，但没有令牌。</translation>
    </message>
    <message>
        <source>%1 did not answer for %2 s (%3).</source>
        <translation>%1 在 %2 秒内没有应答（%3）。</translation>
    </message>
    <message>
        <source>The TLS certificate of %1 is not trusted: %2. If the registry has a CA of its own, put it in /etc/docker/certs.d/%1/ca.crt, as for docker.</source>
        <translation>%1 的 TLS 证书不受信任：%2。如果该镜像仓库有自己的 CA，请像 docker 一样将其放到 /etc/docker/certs.d/%1/ca.crt。</translation>
    </message>
    <message>
        <source>%1 refused the connection (nothing listens there).</source>
        <translation>%1 拒绝了连接（该地址没有服务在监听）。</translation>
    </message>
    <message>
        <source>No host %1: the name does not resolve.</source>
        <translation>没有主机 %1：名称无法解析。</translation>
    </message>
    <message>
        <source>%1 closed the connection before answering %2.</source>
        <translation>%1 在应答 %2 之前关闭了连接。</translation>
    </message>
    <message>
        <source>Cannot reach %1: %2</source>
        <translation>无法连接 %1：%2</translation>
    </message>
    <message>
        <source>%1 refused the user name and password (from %2).</source>
        <translation>%1 拒绝了用户名和密码（来自 %2）。</translation>
    </message>
    <message>
        <source>%1 refused the token it issued for %2: %3</source>
        <translation>%1 拒绝了它为 %2 签发的令牌：%3</translation>
    </message>
    <message>
        <source>%1 does not allow you %2: %3</source>
        <translation>%1 不允许您访问 %2：%3</translation>
    </message>
    <message>
        <source>%1 has no repository for %2.</source>
        <translation>%1 上没有 %2 的仓库。</translation>
    </message>
    <message>
        <source>%1 has no such tag or manifest: %2.</source>
        <translation>%1 上没有这个标签或清单：%2。</translation>
    </message>
    <message>
        <source>%1 has no such blob: %2.</source>
        <translation>%1 上没有这个数据块：%2。</translation>
    </message>
    <message>
        <source>%1 has nothing at %2 (HTTP 404).</source>
        <translation>%1 在 %2 处没有内容（HTTP 404）。</translation>
    </message>
    <message>
        <source>%1 does not allow deleting images: its operator disabled deletion (storage.delete.enabled: false). Nothing was deleted.</source>
        <translation>%1 不允许删除镜像：其运维人员禁用了删除（storage.delete.enabled: false）。没有删除任何内容。</translation>
    </message>
    <message>
        <source>%1 does not allow %2 on %3 (%4).</source>
        <translation>%1 不允许对 %3 执行 %2（%4）。</translation>
    </message>
    <message>
        <source>%1 is limiting the rate of requests; try again later.</source>
        <translation>%1 正在限制请求速率，请稍后再试。</translation>
    </message>
    <message>
        <source>%1 answered HTTP %2 for %3: %4</source>
        <translation>%1 对 %3 返回 HTTP %2：%4</translation>
    </message>
    <message>
        <source>%1 sent the next page of %2 on another server (%3): not followed, so the listing stops here.</source>
        <translation>%1 将 %2 的下一页指向了另一台服务器（%3）：未跟随，列表到此为止。</translation>
    </message>
    <message>
        <source>%1 sent only %2 bytes in %3 s for %4; gpudesk gave up.</source>
        <translation>%1 在 %3 秒内只为 %4 发送了 %2 字节；gpudesk 已放弃。</translation>
    </message>
    <message>
        <source>The token service %1 sent only %2 bytes in %3 s; gpudesk gave up.</source>
        <translation>令牌服务 %1 在 %3 秒内只发送了 %2 字节；gpudesk 已放弃。</translation>
    </message>
    <message>
        <source>%1 redirected %2 to &quot;%3&quot;, which gpudesk does not follow (only http and https, and never from https down to http).</source>
        <translation>%1 将 %2 重定向到“%3”，gpudesk 不会跟随（只跟随 http 和 https，且绝不从 https 降级到 http）。</translation>
    </message>
    <message>
        <source>%1 asks for the password of %2 to be sent to %3 over plain http, which is not the registry itself: gpudesk does not send it there. Its token service should use https.</source>
        <translation>%1 要求把 %2 的密码通过明文 http 发送到 %3，而那并不是镜像仓库本身：gpudesk 不会发送。其令牌服务应使用 https。</translation>
    </message>
</context>
<context>
    <name>gpudesk::RegistryLoginDialog</name>
    <message>
        <source>Log in to %1</source>
        <translation>登录 %1</translation>
    </message>
    <message>
        <source>Remember it in the system keychain (otherwise it is kept in memory until gpudesk quits)</source>
        <translation>保存到系统钥匙串（否则仅保存在内存中，直到 gpudesk 退出）</translation>
    </message>
    <message>
        <source>User name:</source>
        <translation>用户名：</translation>
    </message>
    <message>
        <source>Password or access token:</source>
        <translation>密码或访问令牌：</translation>
    </message>
    <message>
        <source>Log in and read</source>
        <translation>登录并读取</translation>
    </message>
</context>
<context>
    <name>gpudesk::RegistryLogins</name>
    <message>
        <source>the system keychain</source>
        <translation>系统钥匙串</translation>
    </message>
    <message>
        <source>typed in gpudesk</source>
        <translation>在 gpudesk 中输入</translation>
    </message>
</context>
<context>
    <name>gpudesk::RegistryScan</name>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>… and more errors.</source>
        <translation>……还有更多错误。</translation>
    </message>
</context>
<context>
    <name>gpudesk::RegistryStep</name>
    <message>
        <source>no longer in the registry</source>
        <translation>已不在仓库中</translation>
    </message>
    <message>
        <source>In the registry; whether it allows deleting shows when it runs</source>
        <translation>在仓库中；仓库是否允许删除要到执行时才知道</translation>
    </message>
    <message>
        <source>%1 changed since the plan: it would not be overwritten</source>
        <translation>%1 在计划之后已改变：不会覆盖它</translation>
    </message>
    <message>
        <source>Source in the registry; %1 is a new tag</source>
        <translation>源镜像在仓库中；%1 是新标签</translation>
    </message>
    <message>
        <source>Source in the registry; %1 will point at it instead of %2</source>
        <translation>源镜像在仓库中；%1 将指向它，不再指向 %2</translation>
    </message>
    <message>
        <source>already gone from the registry: not acted on</source>
        <translation>已不在仓库中：未执行任何操作</translation>
    </message>
    <message>
        <source>%1 has more than %2 tags: which of them point at this image cannot be checked, so it is not deleted</source>
        <translation>%1 的标签超过 %2 个：无法核对哪些标签指向此镜像，因此不删除</translation>
    </message>
    <message>
        <source>tagged since the plan as %1: deleting it would take that tag too, so it is not deleted</source>
        <translation>计划之后又被打上了标签 %1：删除它会连带删除该标签，因此不删除</translation>
    </message>
    <message>
        <source>the registry accepted the delete</source>
        <translation>仓库已接受删除请求</translation>
    </message>
    <message>
        <source>the registry still serves %1 after deleting it</source>
        <translation>删除后仓库仍然提供 %1</translation>
    </message>
    <message>
        <source>untagged</source>
        <translation>无标签</translation>
    </message>
    <message>
        <source>tags %1</source>
        <translation>标签 %1</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>gone from the registry (%1); its blobs stay on disk until the registry&apos;s garbage collection runs</source>
        <translation>已从仓库中移除（%1）；其数据块仍留在磁盘上，直到仓库执行垃圾回收</translation>
    </message>
    <message>
        <source>tag %1 still points at it</source>
        <translation>标签 %1 仍指向它</translation>
    </message>
    <message>
        <source>%1 was deleted since the plan: not acted on</source>
        <translation>%1 在计划之后已被删除：未执行任何操作</translation>
    </message>
    <message>
        <source>%1 points at %2 since the plan: not overwritten</source>
        <translation>%1 在计划之后已指向 %2：未覆盖</translation>
    </message>
    <message>
        <source>the source is gone from the registry: not acted on</source>
        <translation>源镜像已不在仓库中：未执行任何操作</translation>
    </message>
    <message>
        <source>%1 Copy it with: skopeo copy docker://%2 docker://%3</source>
        <translation>%1 可用以下命令复制：skopeo copy docker://%2 docker://%3</translation>
    </message>
    <message>
        <source>copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <source>%1 points at %2: ready to use as %3@%2</source>
        <translation>%1 指向 %2：可直接使用 %3@%2</translation>
    </message>
    <message>
        <source>the registry accepted the manifest</source>
        <translation>仓库已接受清单</translation>
    </message>
    <message>
        <source>%1 points at %2, not at the image copied</source>
        <translation>%1 指向 %2，而不是复制的镜像</translation>
    </message>
    <message>
        <source>a platform of %1:%2 (a multi-platform image): deleting it would break that image, so it is not deleted</source>
        <translation>是 %1:%2（多平台镜像）的一个平台：删除它会损坏那个镜像，因此不删除</translation>
    </message>
</context>
<context>
    <name>gpudesk::RegistryWatch</name>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
</context>
<context>
    <name>gpudesk::ReportRun</name>
    <message>
        <source>Cannot list %1: %2</source>
        <translation>无法列出 %1：%2</translation>
    </message>
    <message>
        <source>Cannot write the report to %1: %2</source>
        <translation>无法将报告写入 %1：%2</translation>
    </message>
    <message>
        <source>Report written to %1: %2 nodes, %3 GPUs, %4 allocated, %5 free.</source>
        <translation>报告已写入 %1：%2 个节点，%3 张 GPU，已分配 %4 张，空闲 %5 张。</translation>
    </message>
    <message>
        <source>warning: TLS verification is off for context %1</source>
        <translation>警告：上下文 %1 已关闭 TLS 校验</translation>
    </message>
    <message>
        <source>Cannot reach the API server %1: %2</source>
        <translation>无法连接 API 服务器 %1：%2</translation>
    </message>
    <message>
        <source>Partial: this account sees only the pods of namespace %1.</source>
        <translation>部分数据：此账号只能看到命名空间 %1 的 Pod。</translation>
    </message>
    <message>
        <source>not asked: the registries took longer than %1 s</source>
        <translation>未询问：镜像仓库的响应超过了 %1 秒</translation>
    </message>
    <message>
        <source>Cannot reach the API server: %1</source>
        <translation>无法连接 API 服务器：%1</translation>
    </message>
    <message>
        <source>its registry did not answer within %1 s</source>
        <translation>其镜像仓库在 %1 秒内没有应答</translation>
    </message>
    <message numerus="yes">
        <source>the doctor had %n pod(s) left to read when its %1 s were up</source>
        <translation>
            <numerusform>作业诊断在 %1 秒用完时还有 %n 个 Pod 未读取</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n preemption lookup(s) had not ended when the %1 s were up</source>
        <translation>
            <numerusform>%1 秒时限到时，仍有 %n 个抢占查询未结束</numerusform>
        </translation>
    </message>
    <message>
        <source>The SSH sessions to the nodes have ended.</source>
        <translation>到节点的 SSH 会话已结束。</translation>
    </message>
</context>
<context>
    <name>gpudesk::SaveImageDialog</name>
    <message>
        <source>Save %1 as an image</source>
        <translation>将 %1 保存为镜像</translation>
    </message>
    <message>
        <source>Commits container &lt;b&gt;%1&lt;/b&gt; of pod %2 on %3 and pushes it to the registry. Only the container&apos;s own files are saved: the home volume and the NAS stay where they are.</source>
        <translation>在 %3 上提交 Pod %2 的容器 &lt;b&gt;%1&lt;/b&gt; 并推送到镜像仓库。只保存容器自身的文件：主目录卷和 NAS 保持原样。</translation>
    </message>
    <message>
        <source>as docker&apos;s configuration has it</source>
        <translation>使用 docker 配置中的设置</translation>
    </message>
    <message>
        <source>Plan…</source>
        <translation>生成计划…</translation>
    </message>
    <message>
        <source>Registry:</source>
        <translation>镜像仓库：</translation>
    </message>
    <message>
        <source>Repository:</source>
        <translation>仓库：</translation>
    </message>
    <message>
        <source>Tag:</source>
        <translation>标签：</translation>
    </message>
    <message>
        <source>Image:</source>
        <translation>镜像：</translation>
    </message>
    <message>
        <source>Push as user:</source>
        <translation>推送用户：</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
    <message>
        <source>the form</source>
        <translation>表单</translation>
    </message>
    <message>
        <source>The registry is a host name, with a port if it needs one.</source>
        <translation>镜像仓库应为主机名，需要时带上端口。</translation>
    </message>
    <message>
        <source>The repository is lower-case words separated by /, such as alice/dev.</source>
        <translation>仓库名应为以 / 分隔的小写单词，例如 alice/dev。</translation>
    </message>
    <message>
        <source>The tag is letters, digits, &apos;_&apos;, &apos;.&apos; and &apos;-&apos;, at most 128.</source>
        <translation>标签由字母、数字、“_”、“.”和“-”组成，最多 128 个字符。</translation>
    </message>
    <message>
        <source>Give both the user and the password, or neither (docker&apos;s configuration is used then).</source>
        <translation>用户名和密码要么都填，要么都不填（不填时使用 docker 的配置）。</translation>
    </message>
</context>
<context>
    <name>gpudesk::SaveImageStep</name>
    <message>
        <source>exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <source>the registry could not say what %1 names now: %2</source>
        <translation>镜像仓库无法告知 %1 当前指向什么：%2</translation>
    </message>
    <message>
        <source>%1 was deleted since the plan; plan again</source>
        <translation>%1 在制定计划后已被删除；请重新制定计划</translation>
    </message>
    <message>
        <source>%1 names %2 now, not what it named when planned: it is not overwritten</source>
        <translation>%1 现在指向 %2，而不是计划时指向的内容：不会覆盖它</translation>
    </message>
    <message>
        <source>%1 is not installed on %2: %3</source>
        <translation>%2 上没有安装 %1：%3</translation>
    </message>
    <message>
        <source>%1 ps failed on %2: %3</source>
        <translation>%1 ps 在 %2 上失败：%3</translation>
    </message>
    <message>
        <source>%1 runs no container %2 of pod %3 (uid %4): the pod stopped or was replaced since the plan</source>
        <translation>%1 上没有运行 Pod %3（uid %4）的容器 %2：该 Pod 在制定计划后已停止或被替换</translation>
    </message>
    <message>
        <source>%1 lists %2 containers for %3 of pod %4; which one to save is not clear</source>
        <translation>%1 列出了 Pod %4 的 %2 个 %3 容器；无法确定保存哪一个</translation>
    </message>
    <message>
        <source>container %1 found on %2 (%3)</source>
        <translation>在 %2 上找到容器 %1（%3）</translation>
    </message>
    <message>
        <source>Committing container %1 as %2…</source>
        <translation>正在将容器 %1 提交为 %2…</translation>
    </message>
    <message>
        <source>%1 commit failed: %2</source>
        <translation>%1 commit 失败：%2</translation>
    </message>
    <message>
        <source>Committed: %1</source>
        <translation>已提交：%1</translation>
    </message>
    <message>
        <source>Logged in to %1 as %2 (for this push only)</source>
        <translation>已以 %2 身份登录 %1（仅用于本次推送）</translation>
    </message>
    <message>
        <source>%1 push failed: %2</source>
        <translation>%1 push 失败：%2</translation>
    </message>
    <message>
        <source>%1 refused the login of %2: %3</source>
        <translation>%1 拒绝了 %2 的登录：%3</translation>
    </message>
    <message>
        <source>%1 stayed busy or unreachable for a minute</source>
        <translation>%1 持续忙碌或不可达已达一分钟</translation>
    </message>
    <message>
        <source>(the committed image stays on %1 until its runtime removes it)</source>
        <translation>（提交的镜像会留在 %1 上，直到其运行时将其删除）</translation>
    </message>
    <message>
        <source>pushed, but the registry does not show %1: %2</source>
        <translation>已推送，但镜像仓库中没有 %1：%2</translation>
    </message>
    <message>
        <source>pushed %1, but %2 names %3 now (someone pushed in between?)</source>
        <translation>已推送 %1，但 %2 现在指向 %3（期间有人推送？）</translation>
    </message>
    <message>
        <source>saved as %1 — ready to use in a new dev environment</source>
        <translation>已保存为 %1 —— 可用于新的开发环境</translation>
    </message>
    <message>
        <source>%1 names %2 in the registry</source>
        <translation>镜像仓库中 %1 指向 %2</translation>
    </message>
</context>
<context>
    <name>gpudesk::ServiceAccountRotation</name>
    <message>
        <source>already gone: not acted on</source>
        <translation>已不存在：未执行操作</translation>
    </message>
    <message>
        <source>replaced since the plan (uid %1): not acted on</source>
        <translation>计划之后已被替换（uid %1）：未执行</translation>
    </message>
    <message>
        <source>no witness token could be issued, so the revocation could not be proven: %1</source>
        <translation>无法签发见证令牌，因此无法证明吊销生效：%1</translation>
    </message>
    <message>
        <source>no token in the answer</source>
        <translation>答复中没有令牌</translation>
    </message>
    <message>
        <source>the witness token did not work before the rotation (%1): the proof would prove nothing; not acted on</source>
        <translation>见证令牌在重建前就无法使用（%1）：这样的证明毫无意义；未执行</translation>
    </message>
    <message>
        <source>a token issued before the rotation is refused now (401 Unauthorized); the ServiceAccount&apos;s new uid is %1</source>
        <translation>重建前签发的令牌现在被拒绝（401 Unauthorized）；ServiceAccount 的新 uid 为 %1</translation>
    </message>
    <message>
        <source>a token issued before the rotation still works %1 s after it (the API server answered %2)</source>
        <translation>重建前签发的令牌在 %1 秒后仍然有效（API 服务器答复 %2）</translation>
    </message>
    <message>
        <source>the ServiceAccount was still there %1 s after it was deleted</source>
        <translation>删除 %1 秒后 ServiceAccount 仍然存在</translation>
    </message>
    <message>
        <source>the old ServiceAccount is gone but a new one could not be made: %1 — make it again (Repair) before handing out a kubeconfig</source>
        <translation>旧的 ServiceAccount 已删除，但无法创建新的：%1 —— 发放 kubeconfig 之前请重新创建（修复）</translation>
    </message>
    <message>
        <source>deleted and made again</source>
        <translation>已删除并重建</translation>
    </message>
    <message>
        <source>every token of %1 revoked by %2 with gpudesk: %3</source>
        <translation>%2 通过 gpudesk 吊销了 %1 的所有令牌：%3</translation>
    </message>
</context>
<context>
    <name>gpudesk::SessionsPanel</name>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>live, into %1</source>
        <translation>已连通，通向 %1</translation>
    </message>
    <message>
        <source>reconnecting: %1</source>
        <translation>正在重连：%1</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>Copy address</source>
        <translation>复制地址</translation>
    </message>
    <message>
        <source>Close tunnel</source>
        <translation>关闭隧道</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>服务</translation>
    </message>
    <message>
        <source>Local address</source>
        <translation>本地地址</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>In / out</source>
        <translation>入 / 出</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>开始于</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>No tunnels open</source>
        <translation>没有打开的隧道</translation>
    </message>
    <message numerus="yes">
        <source>%n tunnel(s) open</source>
        <translation>
            <numerusform>已打开 %n 条隧道</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Thresholds</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>As the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Takes effect at the next start.</source>
        <translation>下次启动时生效。</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Theme:</source>
        <translation>主题：</translation>
    </message>
    <message>
        <source>Show alerts as desktop notifications</source>
        <translation>以桌面通知显示告警</translation>
    </message>
    <message>
        <source>Keep watching in the tray when the window is closed</source>
        <translation>关闭窗口后在托盘中继续监视</translation>
    </message>
    <message>
        <source>This desktop has no system tray.</source>
        <translation>此桌面没有系统托盘。</translation>
    </message>
    <message>
        <source>Alerts:</source>
        <translation>告警：</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <source>For nodes your SSH config does not name; your SSH config (~/.ssh/config) wins where it does.</source>
        <translation>用于 SSH 配置中未列出的节点；SSH 配置（~/.ssh/config）中有的，以它为准。</translation>
    </message>
    <message>
        <source>your login name</source>
        <translation>你的登录名</translation>
    </message>
    <message>
        <source>SSH user:</source>
        <translation>SSH 用户：</translation>
    </message>
    <message>
        <source>the SSH agent&apos;s keys, then ~/.ssh/id_*</source>
        <translation>SSH agent 的密钥，其次 ~/.ssh/id_*</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>SSH private key</source>
        <translation>SSH 私钥</translation>
    </message>
    <message>
        <source>SSH key:</source>
        <translation>SSH 密钥：</translation>
    </message>
    <message>
        <source>user@bastion:22 (none)</source>
        <translation>user@bastion:22（无）</translation>
    </message>
    <message>
        <source>Jump host:</source>
        <translation>跳板机：</translation>
    </message>
    <message>
        <source>SSH config:</source>
        <translation>SSH 配置：</translation>
    </message>
    <message>
        <source>none: history from this session only</source>
        <translation>无：仅显示本次会话的历史</translation>
    </message>
    <message>
        <source>%1 (the one for every context)</source>
        <translation>%1（所有上下文共用）</translation>
    </message>
    <message>
        <source>Prometheus:</source>
        <translation>Prometheus：</translation>
    </message>
    <message>
        <source>SSH settings take effect when you reconnect (F5); Prometheus at once.</source>
        <translation>SSH 设置在重新连接（F5）后生效；Prometheus 立即生效。</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>Idle GPUs after:</source>
        <translation>GPU 空闲判定时长：</translation>
    </message>
    <message>
        <source>Allocated GPUs under 5 % utilization this long are listed in Cleanup, and dev environments flagged to their owners.</source>
        <translation>已分配且利用率低于 5 % 达到这么久的 GPU 会列在清理页中，相应的开发环境也会提示其所有者。</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Sample nodes every:</source>
        <translation>节点采样间隔：</translation>
    </message>
    <message>
        <source>Over SSH, each node; takes effect when you reconnect.</source>
        <translation>通过 SSH 逐个节点采样；重新连接后生效。</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>Warn of images over:</source>
        <translation>镜像超过此大小时提醒：</translation>
    </message>
    <message>
        <source>Raise an alert when</source>
        <translation>在以下情况告警</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Disk warning at:</source>
        <translation>磁盘警告阈值：</translation>
    </message>
    <message>
        <source>Disk critical at:</source>
        <translation>磁盘严重阈值：</translation>
    </message>
    <message>
        <source> °C</source>
        <translation> °C</translation>
    </message>
    <message>
        <source>GPU too hot at:</source>
        <translation>GPU 过热阈值：</translation>
    </message>
    <message>
        <source>VC or quota full at:</source>
        <translation>虚拟集群或配额已满阈值：</translation>
    </message>
    <message>
        <source> times</source>
        <translation> 次</translation>
    </message>
    <message>
        <source>Flapping: NotReady</source>
        <translation>反复掉线：NotReady</translation>
    </message>
    <message>
        <source>within</source>
        <translation>时间窗口</translation>
    </message>
    <message>
        <source>API server silent for:</source>
        <translation>API 服务器无应答超过：</translation>
    </message>
    <message>
        <source>Folders whose every sub-folder is a user&apos;s (space-separated)</source>
        <translation>其下每个子文件夹都属于一个用户的文件夹（以空格分隔）</translation>
    </message>
    <message>
        <source>NAS, users&apos; folders in:</source>
        <translation>NAS 用户文件夹所在：</translation>
    </message>
    <message>
        <source>Folders whose every sub-folder is a group&apos;s (space-separated)</source>
        <translation>其下每个子文件夹都属于一个组的文件夹（以空格分隔）</translation>
    </message>
    <message>
        <source>NAS, groups&apos; folders in:</source>
        <translation>NAS 组文件夹所在：</translation>
    </message>
    <message>
        <source>the first node that answers</source>
        <translation>第一个响应的节点</translation>
    </message>
    <message>
        <source>Measure the NAS on:</source>
        <translation>在此节点上测量 NAS：</translation>
    </message>
    <message>
        <source>A NAS folder over:</source>
        <translation>NAS 文件夹超过：</translation>
    </message>
    <message>
        <source>Written to it in a day over:</source>
        <translation>一天内写入超过：</translation>
    </message>
</context>
<context>
    <name>gpudesk::SftpClient</name>
    <message>
        <source>%1: no such file or folder</source>
        <translation>%1：没有这个文件或文件夹</translation>
    </message>
    <message>
        <source>%1: permission denied</source>
        <translation>%1：权限不足</translation>
    </message>
    <message>
        <source>%1: already there</source>
        <translation>%1：已存在</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>%1 offers no SFTP: %2</source>
        <translation>%1 不提供 SFTP：%2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a plain file: not opened</source>
        <translation>%1 不是普通文件：未打开</translation>
    </message>
    <message>
        <source>%1 changed while it was opened: not read</source>
        <translation>%1 在打开时发生了变化：未读取</translation>
    </message>
    <message>
        <source>%1 is reached through a link (the NAS reads it as %2): not touched</source>
        <translation>%1 是经由链接到达的（NAS 将其解析为 %2）：未作改动</translation>
    </message>
    <message>
        <source>%1 is there already, and is not a folder</source>
        <translation>%1 已存在，且不是文件夹</translation>
    </message>
</context>
<context>
    <name>gpudesk::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>In tables and lists</source>
        <translation>在表格与列表中</translation>
    </message>
    <message>
        <source>Open the selected row: a workload&apos;s logs, a node&apos;s objects</source>
        <translation>打开所选行：作业的日志、节点的对象</translation>
    </message>
    <message>
        <source>Show a job&apos;s pods (Workloads)</source>
        <translation>显示作业的 Pod（作业页）</translation>
    </message>
    <message>
        <source>Hide a job&apos;s pods (Workloads)</source>
        <translation>隐藏作业的 Pod（作业页）</translation>
    </message>
    <message>
        <source>Copy the selected image references (Images)</source>
        <translation>复制所选镜像的引用（镜像页）</translation>
    </message>
    <message>
        <source>Delete the selected images, with a plan first (Images)</source>
        <translation>删除所选镜像，先显示计划（镜像页）</translation>
    </message>
</context>
<context>
    <name>gpudesk::SpecFix</name>
    <message>
        <source>It holds no pod template.</source>
        <translation>其中没有 Pod 模板。</translation>
    </message>
    <message>
        <source>No container has a memory limit to raise.</source>
        <translation>没有哪个容器设置了可以调高的内存上限。</translation>
    </message>
    <message>
        <source>There is no fix to make in the spec.</source>
        <translation>没有可以在规格中做的修改。</translation>
    </message>
    <message>
        <source>No container sets the variable to remove.</source>
        <translation>没有容器设置要删除的变量。</translation>
    </message>
    <message>
        <source>The command does not name %1 by that path: run %2 instead by hand.</source>
        <translation>命令没有用这个路径写出 %1：请手动改为运行 %2。</translation>
    </message>
</context>
<context>
    <name>gpudesk::SshPool</name>
    <message>
        <source>%1 has no host key waiting for a decision.</source>
        <translation>%1 没有等待确认的主机密钥。</translation>
    </message>
    <message>
        <source>Trusted for this session only: cannot write %1: %2</source>
        <translation>仅在本次会话中信任：无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>gpudesk::SshdProbe</name>
    <message>
        <source>%1 names no image of a platform.</source>
        <translation>%1 没有指向任何平台的镜像。</translation>
    </message>
    <message>
        <source>/%1 in layer %2 of %3</source>
        <translation>/%1 位于第 %2 层（共 %3 层）</translation>
    </message>
    <message>
        <source>/%1 is removed in layer %2 of %3 (a whiteout)</source>
        <translation>/%1 在第 %2 层（共 %3 层）被删除（whiteout）</translation>
    </message>
    <message numerus="yes">
        <source>no SSH server (/%1) in any of its %n layer(s)</source>
        <translation>
            <numerusform>全部 %n 层中都没有 SSH 服务器（/%1）</numerusform>
        </translation>
    </message>
    <message>
        <source>its history installs one: %1</source>
        <translation>其构建历史安装了 SSH 服务器：%1</translation>
    </message>
    <message>
        <source>%1 of its %2 layers read (%3) without an SSH server; the others are over %4 or could not be read%5, and its history names none</source>
        <translation>已读取其 %2 层中的 %1 层（%3），未发现 SSH 服务器；其余各层超过 %4 或无法读取%5，且构建历史中也没有提到</translation>
    </message>
</context>
<context>
    <name>gpudesk::StartCheck</name>
    <message numerus="yes">
        <source>%n more</source>
        <translation>
            <numerusform>另有 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Never starts as it is: %1</source>
        <translation>按现在的配置永远无法启动：%1</translation>
    </message>
    <message>
        <source>Waits: %1</source>
        <translation>需要排队等待：%1</translation>
    </message>
    <message>
        <source>Starts now.</source>
        <translation>可以立即启动。</translation>
    </message>
    <message>
        <source>Starts now on %1.</source>
        <translation>可以立即在 %1 上启动。</translation>
    </message>
    <message>
        <source>Should start now on %1, as far as your account can see.</source>
        <translation>就您的账号可见范围而言，应能立即在 %1 上启动。</translation>
    </message>
    <message>
        <source>%1: /dev/shm of %2 is counted against the memory limit of %3: the container is killed (OOMKilled) once shared memory fills.</source>
        <translation>%1：%2 的 /dev/shm 计入 %3 的内存上限，共享内存写满时容器会被杀掉（OOMKilled）。</translation>
    </message>
    <message>
        <source>Raise the memory limit above %1, or make /dev/shm smaller.</source>
        <translation>把内存上限提高到 %1 以上，或调小 /dev/shm。</translation>
    </message>
    <message>
        <source>%1 is pinned to node %2, which the cluster does not have.</source>
        <translation>%1 指定了节点 %2，但集群中没有这个节点。</translation>
    </message>
    <message>
        <source>Choose machines the cluster has, or leave the choice to the scheduler.</source>
        <translation>请选择集群中存在的机器，或交给调度器选择。</translation>
    </message>
    <message>
        <source>%1 asks for GPU model %2; no node has it (the cluster has: %3).</source>
        <translation>%1 要求 GPU 型号 %2，但没有节点有这种卡（集群现有：%3）。</translation>
    </message>
    <message>
        <source>Choose one of the cluster&apos;s GPU models.</source>
        <translation>请选择集群中已有的 GPU 型号。</translation>
    </message>
    <message>
        <source>No node matches what %1 asks for (node selector, GPU model, pinned nodes, GPUs).</source>
        <translation>没有节点满足 %1 的要求（节点选择器、GPU 型号、指定节点、GPU）。</translation>
    </message>
    <message>
        <source>No node matches what %1 asks for: the nodes it selects have the taint %2, which it does not tolerate.</source>
        <translation>没有节点满足 %1 的要求：它选中的节点带有污点 %2，而它没有对应的容忍。</translation>
    </message>
    <message>
        <source>Loosen the node selector or choose other machines.</source>
        <translation>请放宽节点选择器，或选择其他机器。</translation>
    </message>
    <message>
        <source>Ask for at most %1 GPUs per pod.</source>
        <translation>每个 Pod 最多申请 %1 张 GPU。</translation>
    </message>
    <message>
        <source>Run it as %1 nodes × %2 GPUs: distributed training (a PyTorchJob or an MPIJob).</source>
        <translation>改为 %1 个节点 × 每节点 %2 张 GPU 的分布式训练（PyTorchJob 或 MPIJob）。</translation>
    </message>
    <message>
        <source>%1 asks for %2 GPUs in one pod; no node it may run on has more than %3 (%4).</source>
        <translation>%1 在一个 Pod 中申请 %2 张 GPU，但它可用的节点每台最多只有 %3 张（%4）。</translation>
    </message>
    <message>
        <source>%1 asks for %2 CPUs per pod; no node it may run on has more than %3.</source>
        <translation>%1 每个 Pod 申请 %2 个 CPU，但它可用的节点最多只有 %3 个。</translation>
    </message>
    <message>
        <source>Ask for at most %1 CPUs per pod.</source>
        <translation>每个 Pod 最多申请 %1 个 CPU。</translation>
    </message>
    <message>
        <source>%1 asks for %2 of memory per pod; no node it may run on has more than %3.</source>
        <translation>%1 每个 Pod 申请 %2 内存，但它可用的节点最多只有 %3。</translation>
    </message>
    <message>
        <source>Ask for at most %1 per pod.</source>
        <translation>每个 Pod 最多申请 %1。</translation>
    </message>
    <message>
        <source>%1 needs %2 GPUs at once (%3 × %4); the nodes it may run on have %5 in all.</source>
        <translation>%1 需要同时使用 %2 张 GPU（%3 × %4），而它可用的节点总共只有 %5 张。</translation>
    </message>
    <message>
        <source>Use fewer pods or fewer GPUs per pod.</source>
        <translation>请减少 Pod 数或每个 Pod 的 GPU 数。</translation>
    </message>
    <message>
        <source>Volcano&apos;s queues could not be read: VC %1 is not checked.</source>
        <translation>无法读取 Volcano 队列：未检查虚拟集群 %1。</translation>
    </message>
    <message>
        <source>VC %1 does not exist: Volcano refuses the job.</source>
        <translation>虚拟集群 %1 不存在：Volcano 会拒绝该作业。</translation>
    </message>
    <message>
        <source>Choose one of the open VCs: %1.</source>
        <translation>请从开放的虚拟集群中选择：%1。</translation>
    </message>
    <message>
        <source>VC %1 is %2: it takes no new jobs.</source>
        <translation>虚拟集群 %1 处于 %2 状态，不接收新作业。</translation>
    </message>
    <message>
        <source>VC %1 has no GPUs (capability 0); the job asks for %2.</source>
        <translation>虚拟集群 %1 没有 GPU（capability 为 0），而作业申请了 %2 张。</translation>
    </message>
    <message>
        <source>VC %1 may hold %2 GPUs at most; the job asks for %3.</source>
        <translation>虚拟集群 %1 最多只能使用 %2 张 GPU，而作业申请了 %3 张。</translation>
    </message>
    <message>
        <source>Ask for at most %1 GPUs, or choose a larger VC.</source>
        <translation>最多申请 %1 张 GPU，或选择更大的虚拟集群。</translation>
    </message>
    <message>
        <source>VC %1 holds %2 of its %3 GPUs; the job needs %4: it waits until %5 are released. In use by (GPUs): %6.</source>
        <translation>虚拟集群 %1 已占用 %3 张 GPU 中的 %2 张，作业需要 %4 张：要等到释放 %5 张后才能启动。占用者（GPU 数）：%6。</translation>
    </message>
    <message>
        <source>Wait, ask for fewer GPUs, or choose another VC.</source>
        <translation>请等待、减少 GPU 数，或选择其他虚拟集群。</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) wait in VC %1 before this one (%2 GPUs: %3); after them its %4 GPUs have no room for %5.</source>
        <translation>
            <numerusform>虚拟集群 %1 中有 %n 个作业排在它前面（共 %2 张 GPU：%3）；它们启动后，%4 张 GPU 的容量已放不下本作业的 %5 张。</numerusform>
        </translation>
    </message>
    <message>
        <source>Wait, or choose a VC with room.</source>
        <translation>请等待，或选择有空余的虚拟集群。</translation>
    </message>
    <message>
        <source>With this job VC %1 holds %2 GPUs, above its deserved %3: GPUs beyond its share may be reclaimed when other VCs need them (the job is then evicted).</source>
        <translation>加上本作业，虚拟集群 %1 将占用 %2 张 GPU，超过其应得份额 %3：其他虚拟集群需要时，超出部分可能被回收（作业会被驱逐）。</translation>
    </message>
    <message>
        <source>The quota of namespace %1 allows %2 of %3; the job asks for %4.</source>
        <translation>命名空间 %1 的配额允许 %3 最多 %2，而作业申请了 %4。</translation>
    </message>
    <message>
        <source>Ask for at most %1, or ask an admin for a larger quota.</source>
        <translation>最多申请 %1，或请管理员提高配额。</translation>
    </message>
    <message>
        <source>Namespace %1 uses %2 of its quota of %3 %4; the job needs %5 more. In use by (GPUs): %6.</source>
        <translation>命名空间 %1 已用配额 %3 %4 中的 %2，作业还需要 %5。占用者（GPU 数）：%6。</translation>
    </message>
    <message>
        <source>your running jobs</source>
        <translation>您正在运行的作业</translation>
    </message>
    <message>
        <source>Wait for your jobs to end, or stop one.</source>
        <translation>请等待您的作业结束，或停止其中一个。</translation>
    </message>
    <message>
        <source>Every node %1 may run on is NotReady or cordoned.</source>
        <translation>%1 可用的节点全部处于 NotReady 或已封锁状态。</translation>
    </message>
    <message>
        <source>Wait for the nodes to return, or choose others.</source>
        <translation>请等待节点恢复，或选择其他节点。</translation>
    </message>
    <message>
        <source>%1 has %2 free (held by: %3)</source>
        <translation>%1 空闲 %2 张（占用者：%3）</translation>
    </message>
    <message>
        <source>%1 GPUs are free on the nodes %2 may run on, but no node has %3 free: %4.</source>
        <translation>%2 可用的节点上共有 %1 张空闲 GPU，但没有一个节点空闲 %3 张：%4。</translation>
    </message>
    <message>
        <source>As distributed training it fits now: %1 pods × %2 GPUs.</source>
        <translation>改为分布式训练即可立即放下：%1 个 Pod × 每个 %2 张 GPU。</translation>
    </message>
    <message>
        <source>Wait for the jobs named to end, or ask for fewer GPUs per pod.</source>
        <translation>请等待上述作业结束，或减少每个 Pod 的 GPU 数。</translation>
    </message>
    <message>
        <source>%1 needs %2 GPUs; %3 are free on the nodes it may run on.</source>
        <translation>%1 需要 %2 张 GPU，它可用的节点上只有 %3 张空闲。</translation>
    </message>
    <message>
        <source>Wait, or ask for fewer GPUs.</source>
        <translation>请等待，或减少 GPU 数。</translation>
    </message>
    <message>
        <source>No node %1 may run on has %2 CPUs free beside the GPUs.</source>
        <translation>%1 可用的节点中，没有一个在有空闲 GPU 的同时还有 %2 个空闲 CPU。</translation>
    </message>
    <message>
        <source>No node %1 may run on has %2 of memory free beside the GPUs.</source>
        <translation>%1 可用的节点中，没有一个在有空闲 GPU 的同时还有 %2 空闲内存。</translation>
    </message>
    <message>
        <source>Ask for less, or wait.</source>
        <translation>请少申请一些，或等待。</translation>
    </message>
    <message>
        <source>Your account sees only the pods of namespace %1: the free GPUs counted are those not seen in use, so the nodes named may be busier than they look.</source>
        <translation>您的账号只能看到命名空间 %1 的 Pod：这里统计的空闲 GPU 只是未见被占用的卡，所列节点可能比看起来更忙。</translation>
    </message>
    <message>
        <source>NCCL_DEBUG=%1 writes a line per collective to the log: it fills it and slows training.</source>
        <translation>NCCL_DEBUG=%1 会为每次集合通信写一行日志：日志会被刷满，训练也会变慢。</translation>
    </message>
    <message>
        <source>Remove NCCL_DEBUG, or set it to WARN.</source>
        <translation>删除 NCCL_DEBUG，或设为 WARN。</translation>
    </message>
    <message>
        <source>CUDA_LAUNCH_BLOCKING=1 makes every kernel launch wait for the GPU: training runs several times slower. It is for debugging.</source>
        <translation>CUDA_LAUNCH_BLOCKING=1 会让每次 kernel 启动都等待 GPU 完成：训练会慢数倍。它只用于调试。</translation>
    </message>
    <message>
        <source>Remove CUDA_LAUNCH_BLOCKING.</source>
        <translation>删除 CUDA_LAUNCH_BLOCKING。</translation>
    </message>
    <message>
        <source>PYTORCH_NO_CUDA_MEMORY_CACHING=1 turns off PyTorch&apos;s memory cache: every allocation goes to the driver, which is slow. It is for debugging.</source>
        <translation>PYTORCH_NO_CUDA_MEMORY_CACHING=1 会关闭 PyTorch 的显存缓存：每次分配都直接找驱动，很慢。它只用于调试。</translation>
    </message>
    <message>
        <source>Remove PYTORCH_NO_CUDA_MEMORY_CACHING.</source>
        <translation>删除 PYTORCH_NO_CUDA_MEMORY_CACHING。</translation>
    </message>
    <message numerus="yes">
        <source>NCCL_IB_DISABLE=1 makes NCCL use TCP sockets between nodes, though %n node(s) of this model have InfiniBand or RoCE (%1).</source>
        <translation>
            <numerusform>NCCL_IB_DISABLE=1 会让 NCCL 在节点间走 TCP，而这种型号的 %n 个节点有 InfiniBand 或 RoCE（%1）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove NCCL_IB_DISABLE.</source>
        <translation>删除 NCCL_IB_DISABLE。</translation>
    </message>
    <message>
        <source>NCCL_P2P_DISABLE=1 makes the GPUs of a pod talk through host memory, though %1 cards talk directly (NVLink or PCIe P2P).</source>
        <translation>NCCL_P2P_DISABLE=1 会让同一 Pod 内的 GPU 经由主机内存通信，而 %1 卡之间本可直连（NVLink 或 PCIe P2P）。</translation>
    </message>
    <message>
        <source>Remove NCCL_P2P_DISABLE.</source>
        <translation>删除 NCCL_P2P_DISABLE。</translation>
    </message>
    <message>
        <source>Remove NCCL_SOCKET_IFNAME, or name the nodes&apos; interface prefix (eth, ib).</source>
        <translation>删除 NCCL_SOCKET_IFNAME，或写节点网卡名的前缀（eth、ib）。</translation>
    </message>
    <message>
        <source>The command uses WORLD_SIZE as the number of GPUs; under Volcano&apos;s pytorch plugin it is the number of pods (%1), not of GPUs (%2).</source>
        <translation>启动命令把 WORLD_SIZE 当作 GPU 数使用；在 Volcano 的 pytorch 插件下，它是 Pod 数（%1），不是 GPU 数（%2）。</translation>
    </message>
    <message>
        <source>Pass --nproc_per_node=%1 (the GPUs of one pod).</source>
        <translation>请传入 --nproc_per_node=%1（单个 Pod 的 GPU 数）。</translation>
    </message>
    <message>
        <source>/dev/shm is the runtime&apos;s %1: a PyTorch DataLoader with workers fails with &quot;bus error&quot; once a batch does not fit.</source>
        <translation>/dev/shm 是容器运行时默认的 %1：带 worker 的 PyTorch DataLoader 一旦放不下一个批次，就会报“bus error”。</translation>
    </message>
    <message>
        <source>Give /dev/shm a Memory volume (half the memory limit is the usual size).</source>
        <translation>给 /dev/shm 挂一个 Memory 类型的卷（通常设为内存上限的一半）。</translation>
    </message>
    <message>
        <source>%1: %2 CPUs with %3 of memory is far from the usual 1 CPU per 10 GB.</source>
        <translation>%1：%2 个 CPU 配 %3 内存，与通常每 10 GB 配 1 个 CPU 的比例相差很远。</translation>
    </message>
    <message>
        <source>About %1 CPUs for %2.</source>
        <translation>%2 内存约配 %1 个 CPU。</translation>
    </message>
    <message>
        <source>%1: %2 CPUs for %3 GPUs: data loading will keep the GPUs waiting.</source>
        <translation>%1：%3 张 GPU 只配了 %2 个 CPU，数据加载会让 GPU 空等。</translation>
    </message>
    <message>
        <source>At least one CPU per GPU; 8 to 15 for a job is usual.</source>
        <translation>每张 GPU 至少配 1 个 CPU；一个作业通常配 8 到 15 个。</translation>
    </message>
    <message>
        <source>%1 needs %2 GPUs; %3 are free on the nodes it may run on. In use there by (GPUs): %4.</source>
        <translation>%1 需要 %2 张 GPU，它可用的节点上只有 %3 张空闲。这些节点上的占用者（GPU 数）：%4。</translation>
    </message>
    <message>
        <source>%1 GPUs are free on the nodes %2 may run on, but scattered: its %3 pods of %4 GPUs do not all fit on whole nodes: %5.</source>
        <translation>%2 可用的节点上共有 %1 张空闲 GPU，但很分散：它的 %3 个 Pod（每个 %4 张 GPU）无法全部放到整机上：%5。</translation>
    </message>
    <message>
        <source>The command starts %1 processes per pod (--nproc_per_node) but the pod has %2 GPUs.</source>
        <translation>启动命令每个 Pod 启动 %1 个进程（--nproc_per_node），但 Pod 只有 %2 张 GPU。</translation>
    </message>
    <message>
        <source>Pass --nproc_per_node=%1, or ask for %2 GPUs.</source>
        <translation>请传入 --nproc_per_node=%1，或申请 %2 张 GPU。</translation>
    </message>
    <message>
        <source>The quota %1 of namespace %2 caps %3: a container without a %4 limit gets the namespace&apos;s default (LimitRange), or the pod is refused when there is none.</source>
        <translation>命名空间 %2 的配额 %1 限制了 %3：未设置%4上限的容器会得到命名空间的默认值（LimitRange），若没有默认值，Pod 会被拒绝。</translation>
    </message>
    <message>
        <source>Give every container a %1 limit.</source>
        <translation>请为每个容器设置%1上限。</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>NCCL_SOCKET_IFNAME=%1 leaves NCCL no interface of the pod but the loopback: without hostNetwork a pod has %2, not the node&apos;s interfaces. NCCL fails to start (&quot;no socket interface found&quot;) or cannot reach the other pods.</source>
        <translation>NCCL_SOCKET_IFNAME=%1 让 NCCL 在 Pod 中只剩回环接口可用：未启用 hostNetwork 的 Pod 只有 %2，没有节点自身的网络接口。NCCL 会启动失败（“no socket interface found”），或无法连到其他 Pod。</translation>
    </message>
    <message>
        <source>Remove NCCL_SOCKET_IFNAME (NCCL then picks eth0), or run the pods with hostNetwork to use the nodes&apos; own interfaces.</source>
        <translation>删除 NCCL_SOCKET_IFNAME（NCCL 会自动选用 eth0），或以 hostNetwork 运行 Pod 以使用节点自身的网络接口。</translation>
    </message>
    <message numerus="yes">
        <source>NCCL_SOCKET_IFNAME=%1 leaves NCCL no interface but the loopback on %n of the node(s) the job may run on (%2; %3 has %4): NCCL fails to start there.</source>
        <translation>
            <numerusform>NCCL_SOCKET_IFNAME=%1 在该作业可能运行的 %n 个节点上只剩回环接口可用（%2；%3 的接口为 %4）：NCCL 在这些节点上会启动失败。</numerusform>
        </translation>
    </message>
    <message>
        <source>Name an interface those nodes have, pin the job to nodes that have it, or remove NCCL_SOCKET_IFNAME.</source>
        <translation>请指定这些节点具有的接口、将作业固定到具有该接口的节点，或删除 NCCL_SOCKET_IFNAME。</translation>
    </message>
    <message>
        <source>NCCL_SOCKET_IFNAME=lo names the loopback interface: pods on other nodes cannot be reached through it.</source>
        <translation>NCCL_SOCKET_IFNAME=lo 指定的是回环接口：无法通过它访问其他节点上的 Pod。</translation>
    </message>
    <message>
        <source>The namespace&apos;s LimitRanges could not be read (%1): the defaults and bounds they may set are not checked.</source>
        <translation>无法读取命名空间的 LimitRange（%1）：其可能设置的默认值和上下限未被检查。</translation>
    </message>
    <message>
        <source>Ask an admin for list on limitranges in %1 (Kubernetes&apos; view role has it), or write each container&apos;s requests and limits.</source>
        <translation>请管理员授予 %1 中 limitranges 的 list 权限（Kubernetes 的 view 角色包含此权限），或为每个容器写明 requests 和 limits。</translation>
    </message>
</context>
<context>
    <name>gpudesk::StdioForward</name>
    <message>
        <source>--stdio-forward takes CONTEXT/NAMESPACE/ENVIRONMENT:PORT, not &quot;%1&quot;</source>
        <translation>--stdio-forward 的参数格式为 CONTEXT/NAMESPACE/ENVIRONMENT:PORT，而不是“%1”</translation>
    </message>
</context>
<context>
    <name>gpudesk::StepGuard</name>
    <message>
        <source>its node reports no Ready condition: not acted on</source>
        <translation>其节点未报告 Ready 状态：未执行</translation>
    </message>
    <message>
        <source>its node is Ready again: not acted on</source>
        <translation>其节点已恢复 Ready：未执行</translation>
    </message>
    <message>
        <source>its node was Ready again since the plan (NotReady again since %1): not acted on</source>
        <translation>计划之后其节点曾恢复 Ready（自 %1 起再次 NotReady）：未执行</translation>
    </message>
    <message>
        <source>an unknown time</source>
        <translation>未知时间</translation>
    </message>
    <message>
        <source>its pod cannot be checked again (the window shows another context): not acted on</source>
        <translation>无法再次检查其 Pod（窗口已切换到其他上下文）：未执行</translation>
    </message>
    <message>
        <source>its pod %1/%2 is there again: not acted on</source>
        <translation>其 Pod %1/%2 又出现了：未执行</translation>
    </message>
    <message>
        <source>what justified it cannot be read again: not acted on</source>
        <translation>无法再次读取执行依据：未执行</translation>
    </message>
    <message>
        <source>already gone: not acted on</source>
        <translation>已不存在：未执行操作</translation>
    </message>
    <message>
        <source>its pod is gone since the plan: not acted on</source>
        <translation>计划之后其 Pod 已不存在：未执行</translation>
    </message>
    <message>
        <source>replaced since the plan by another object of the same name (uid %1): not acted on</source>
        <translation>计划之后已被同名的另一个对象（uid %1）替换：未执行操作</translation>
    </message>
    <message>
        <source>no longer Terminating: not acted on</source>
        <translation>已不再处于 Terminating：未执行操作</translation>
    </message>
    <message>
        <source>its node cannot be checked again (the window shows another context): not acted on</source>
        <translation>无法再次检查其节点（窗口已切换到其他上下文）：未执行</translation>
    </message>
    <message>
        <source>its node %1 runs its containers again: not acted on</source>
        <translation>其节点 %1 又在运行它的容器：未执行</translation>
    </message>
    <message>
        <source>its node %1 is gone from the cluster: not acted on</source>
        <translation>其节点 %1 已从集群中消失：未执行</translation>
    </message>
    <message>
        <source>its node %1 could not be read again (%2): not acted on</source>
        <translation>无法再次读取其节点 %1（%2）：未执行</translation>
    </message>
</context>
<context>
    <name>gpudesk::StepRunner</name>
    <message>
        <source>no SSH access to the nodes: node telemetry is off for this context</source>
        <translation>无法通过 SSH 访问节点：此上下文未开启节点遥测</translation>
    </message>
    <message>
        <source>%1 is not among the nodes gpudesk reaches over SSH</source>
        <translation>%1 不在 gpudesk 可通过 SSH 访问的节点之列</translation>
    </message>
    <message>
        <source>%1 waits for you over SSH: %2</source>
        <translation>%1 的 SSH 连接在等待您处理：%2</translation>
    </message>
    <message>
        <source>%1 could not be reached over SSH for a minute</source>
        <translation>一分钟内无法通过 SSH 连接 %1</translation>
    </message>
</context>
<context>
    <name>gpudesk::StorageAlerts</name>
    <message>
        <source>NAS %1 is %2 % full: %3 free of %4. Jobs that write checkpoints there fail when it is full.</source>
        <translation>NAS %1 已用 %2 %：剩余 %3，共 %4。写满后，向其写检查点的作业会失败。</translation>
    </message>
    <message>
        <source>User %1 keeps %2 on the NAS (%3), over the %4 set.</source>
        <translation>用户 %1 在 NAS 上占用 %2（%3），超过设定的 %4。</translation>
    </message>
    <message>
        <source>Group %1 keeps %2 on the NAS (%3), over the %4 set.</source>
        <translation>组 %1 在 NAS 上占用 %2（%3），超过设定的 %4。</translation>
    </message>
    <message>
        <source>%1 grew by %2 in the day before %3 (more than %4 a day).</source>
        <translation>%1 在 %3 之前的一天内增长了 %2（超过每天 %4）。</translation>
    </message>
    <message>
        <source>%1 could not be read (permission denied): what it holds is not counted.</source>
        <translation>%1 无法读取（权限不足）：其中的内容未计入。</translation>
    </message>
    <message numerus="yes">
        <source>The walk of %1 printed %n line(s) that are not records, left out; the first: %2</source>
        <translation>
            <numerusform>扫描 %1 时输出了 %n 行不是记录的内容，已忽略；第一行：%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more complaint(s) of the walk, not listed.</source>
        <translation>
            <numerusform>… 扫描还报告了另外 %n 个问题，未一一列出。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 had %2 written to it in the day before %3 (more than %4 a day).</source>
        <translation>%1 在 %3 之前的一天内写入了 %2（超过每天 %4）。</translation>
    </message>
</context>
<context>
    <name>gpudesk::StorageMeter</name>
    <message>
        <source>exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <source>The node has no GNU find (or no nice, ionice): %1</source>
        <translation>该节点没有 GNU find（或没有 nice、ionice）：%1</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>No node answered over SSH to measure the NAS on.</source>
        <translation>没有节点通过 SSH 响应，无法在其上测量 NAS。</translation>
    </message>
    <message>
        <source>%1 does not answer over SSH.</source>
        <translation>%1 没有通过 SSH 响应。</translation>
    </message>
    <message>
        <source>%1 stayed busy with other long work.</source>
        <translation>%1 一直忙于其他耗时任务。</translation>
    </message>
    <message>
        <source>The walk found nothing under %1 on %2: is the NAS mounted there?</source>
        <translation>在 %2 上扫描 %1 没有发现任何内容：该节点是否挂载了 NAS？</translation>
    </message>
    <message>
        <source>The walk of %1 did not finish (exit status %2).</source>
        <translation>扫描 %1 未完成（退出状态 %2）。</translation>
    </message>
    <message>
        <source>The connection to the nodes is gone.</source>
        <translation>与节点的连接已断开。</translation>
    </message>
</context>
<context>
    <name>gpudesk::StorageModel</name>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>组</translation>
    </message>
    <message>
        <source>%1 on disk for %2 of files: sparse files (or a filesystem that compresses) take less than their size.</source>
        <translation>文件大小 %2，实际占用磁盘 %1：稀疏文件（或带压缩的文件系统）占用的空间小于其大小。</translation>
    </message>
    <message>
        <source>Bytes of files changed in the 24 hours before the walk: %1; in the week: %2</source>
        <translation>扫描前 24 小时内改动的文件字节数：%1；一周内：%2</translation>
    </message>
    <message>
        <source>Net growth needs a measure a week old; the history is younger.</source>
        <translation>净增长需要一周前的测量数据；目前的历史记录还不满一周。</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>%1前</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>On disk</source>
        <translation>磁盘占用</translation>
    </message>
    <message>
        <source>Written 24 h</source>
        <translation>24 小时写入</translation>
    </message>
    <message>
        <source>Growth 7 d</source>
        <translation>7 天增长</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>最近改动</translation>
    </message>
    <message>
        <source>Largest folder</source>
        <translation>最大的文件夹</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>File count</source>
        <translation>文件数</translation>
    </message>
</context>
<context>
    <name>gpudesk::StoragePage</name>
    <message>
        <source>Measure now</source>
        <translation>立即测量</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Largest below the folder</source>
        <translation>文件夹下最大的内容</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>改动时间</translation>
    </message>
    <message>
        <source>Walk the NAS now over SSH on a node that mounts it, at the lowest CPU and IO priority</source>
        <translation>立即通过 SSH 在挂载了 NAS 的节点上扫描 NAS，使用最低的 CPU 和 IO 优先级</translation>
    </message>
    <message>
        <source>Copy the selected path, to use in a job or a dev environment</source>
        <translation>复制所选路径，以便在作业或开发环境中使用</translation>
    </message>
    <message>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <source>gpudesk walks the NAS on its own no more often than this</source>
        <translation>gpudesk 自动扫描 NAS 的间隔不会短于此值</translation>
    </message>
    <message>
        <source>Filter folders: user, group, path…</source>
        <translation>筛选文件夹：用户、组、路径…</translation>
    </message>
    <message>
        <source>Walk every</source>
        <translation>扫描间隔</translation>
    </message>
    <message>
        <source>%1 % full</source>
        <translation>已用 %1 %</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1 free of %2</source>
        <translation>剩余 %1，共 %2</translation>
    </message>
    <message>
        <source>The last walk of %1 failed: %2</source>
        <translation>上次扫描 %1 失败：%2</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>%1前</translation>
    </message>
    <message>
        <source>Largest folders and files right below</source>
        <translation>紧邻其下最大的文件夹和文件</translation>
    </message>
    <message>
        <source>Largest files</source>
        <translation>最大的文件</translation>
    </message>
    <message>
        <source>Sparse: %1 on disk</source>
        <translation>稀疏文件：磁盘占用 %1</translation>
    </message>
    <message>
        <source>Core dumps</source>
        <translation>核心转储</translation>
    </message>
    <message>
        <source>Walking the NAS…</source>
        <translation>正在扫描 NAS…</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more.</source>
        <translation>
            <numerusform>… 还有 %n 条。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not read or changed for %1 days (%2 and more)</source>
        <translation>%1 天未读取也未改动（%2 及以上）</translation>
    </message>
    <message numerus="yes">
        <source>Walking %1: %n entries, %2 so far…</source>
        <translation>
            <numerusform>正在扫描 %1：已有 %n 个条目，共 %2…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>measured %1 ago on %2: %n entries in %3 s</source>
        <translation>
            <numerusform>%1前在 %2 上测量：%n 个条目，用时 %3 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>资源使用</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>The node the NAS is walked and its files are read on: one that mounts it and answers over SSH. Walks run at the lowest CPU and IO priority there.</source>
        <translation>统计 NAS 用量和读取其文件所用的节点：需挂载了 NAS 且可通过 SSH 连接。统计在该节点上以最低的 CPU 和 IO 优先级运行。</translation>
    </message>
    <message>
        <source>On node</source>
        <translation>所用节点</translation>
    </message>
    <message>
        <source>Any that answers</source>
        <translation>任一可连接的节点</translation>
    </message>
    <message>
        <source>Cleanup</source>
        <translation>清理</translation>
    </message>
    <message>
        <source>Your own folders are on the Files tab, through your running dev environment.</source>
        <translation>你自己的文件夹可在“文件”标签页中通过运行中的开发环境访问。</translation>
    </message>
</context>
<context>
    <name>gpudesk::StorageService</name>
    <message>
        <source>Cannot keep the NAS figures in %1: %2</source>
        <translation>无法将 NAS 数据保存到 %1：%2</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>The NAS is measured over SSH on a node that mounts it, and gpudesk has no SSH to the nodes here (node telemetry is off).</source>
        <translation>NAS 需通过 SSH 在挂载它的节点上测量，而此处 gpudesk 无法通过 SSH 连接节点（节点遥测已关闭）。</translation>
    </message>
    <message>
        <source>The walk did not finish.</source>
        <translation>扫描未完成。</translation>
    </message>
</context>
<context>
    <name>gpudesk::SubmitRun</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is larger than %2 MiB: not a job.</source>
        <translation>%1 大于 %2 MiB，不是作业文件。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: the job has no metadata.name.</source>
        <translation>%1：作业没有 metadata.name。</translation>
    </message>
    <message>
        <source>The kubeconfig has no context &quot;%1&quot;.</source>
        <translation>kubeconfig 中没有上下文“%1”。</translation>
    </message>
    <message>
        <source>Cannot connect.</source>
        <translation>无法连接。</translation>
    </message>
    <message>
        <source>Reading the cluster at %1…</source>
        <translation>正在读取位于 %1 的集群…</translation>
    </message>
    <message>
        <source>Cannot reach the API server %1: %2</source>
        <translation>无法连接 API 服务器 %1：%2</translation>
    </message>
    <message>
        <source>The cluster could not be read within %1 s.</source>
        <translation>%1 秒内无法读取集群。</translation>
    </message>
    <message>
        <source>The cluster does not serve %1: %2 is not installed.</source>
        <translation>集群不提供 %1：未安装 %2。</translation>
    </message>
    <message>
        <source>The cluster serves %1 as %2, not %3.</source>
        <translation>集群提供的 %1 版本是 %2，而不是 %3。</translation>
    </message>
    <message>
        <source>Write apiVersion: %1/%2.</source>
        <translation>请写成 apiVersion: %1/%2。</translation>
    </message>
    <message>
        <source>Checking %1 %2…</source>
        <translation>正在检查 %1 %2…</translation>
    </message>
    <message>
        <source>The API server refuses to create it: %1</source>
        <translation>API 服务器拒绝创建：%1</translation>
    </message>
    <message>
        <source>Not created: %1</source>
        <translation>未创建：%1</translation>
    </message>
    <message>
        <source>Created; watching what the cluster makes of it…</source>
        <translation>已创建；正在观察集群如何处理它…</translation>
    </message>
    <message>
        <source>Created %1/%2: %3</source>
        <translation>已创建 %1/%2：%3</translation>
    </message>
    <message>
        <source>not yet seen in the cluster</source>
        <translation>集群中暂未看到</translation>
    </message>
    <message>
        <source>give --ssh-config to look at the NAS</source>
        <translation>指定 --ssh-config 才会检查 NAS</translation>
    </message>
    <message>
        <source>Sampling the nodes over SSH: the job runs on their own network…</source>
        <translation>正在通过 SSH 采样节点：该作业使用节点自身的网络…</translation>
    </message>
</context>
<context>
    <name>gpudesk::SyncProgress</name>
    <message>
        <source>%1: %2 of %3 (%4 %)</source>
        <translation>%1：%2 / %3（%4 %）</translation>
    </message>
    <message>
        <source>%1: %2 so far</source>
        <translation>%1：已列取 %2 个</translation>
    </message>
    <message>
        <source>%1: starting</source>
        <translation>%1：开始列取</translation>
    </message>
</context>
<context>
    <name>gpudesk::TelemetryChart</name>
    <message>
        <source>GPU utilization (%)</source>
        <translation>GPU 利用率（%）</translation>
    </message>
    <message>
        <source>GPU memory used (MiB)</source>
        <translation>GPU 显存占用（MiB）</translation>
    </message>
    <message>
        <source>GPU temperature (°C)</source>
        <translation>GPU 温度（°C）</translation>
    </message>
    <message>
        <source>GPU power (W)</source>
        <translation>GPU 功耗（W）</translation>
    </message>
    <message>
        <source>CPU busy (%)</source>
        <translation>CPU 使用率（%）</translation>
    </message>
    <message>
        <source>Memory used (%)</source>
        <translation>内存使用率（%）</translation>
    </message>
    <message>
        <source>Load (1 min)</source>
        <translation>负载（1 分钟）</translation>
    </message>
    <message>
        <source>Last 10 minutes</source>
        <translation>最近 10 分钟</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>%1 GPU %2</source>
        <translation>%1 GPU %2</translation>
    </message>
    <message>
        <source>Last 24 hours (Prometheus)</source>
        <translation>最近 24 小时（Prometheus）</translation>
    </message>
    <message>
        <source>Last 7 days (Prometheus)</source>
        <translation>最近 7 天（Prometheus）</translation>
    </message>
    <message>
        <source>CPU (cores)</source>
        <translation>CPU（核）</translation>
    </message>
    <message>
        <source>Memory, working set (GiB)</source>
        <translation>内存工作集（GiB）</translation>
    </message>
    <message>
        <source>All %1 pods</source>
        <translation>全部 %1 个 Pod</translation>
    </message>
    <message>
        <source>Requested</source>
        <translation>请求量</translation>
    </message>
    <message>
        <source>Prometheus history is for a node&apos;s metrics.</source>
        <translation>Prometheus 历史数据仅适用于单个节点的指标。</translation>
    </message>
</context>
<context>
    <name>gpudesk::TelemetrySession</name>
    <message>
        <source>The SSH config %1 does not exist.</source>
        <translation>SSH 配置文件 %1 不存在。</translation>
    </message>
</context>
<context>
    <name>gpudesk::TextDiff</name>
    <message>
        <source>(the two differ in more than %1 lines: too many to show line by line)</source>
        <translation>（两者相差超过 %1 行：太多，无法逐行显示）</translation>
    </message>
</context>
<context>
    <name>gpudesk::Tunnel</name>
    <message>
        <source>Cannot listen on 127.0.0.1:%1: %2</source>
        <translation>无法在 127.0.0.1:%1 上监听：%2</translation>
    </message>
    <message>
        <source>Closed.</source>
        <translation>已关闭。</translation>
    </message>
</context>
<context>
    <name>gpudesk::UserDetailPanel</name>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Pods</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Repair…</source>
        <translation>修复…</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Select a user to see the objects that make them up.</source>
        <translation>选择一个用户，查看构成该用户的对象。</translation>
    </message>
    <message>
        <source>Reading %1&apos;s objects from the server…</source>
        <translation>正在从服务器读取 %1 的对象…</translation>
    </message>
    <message>
        <source>No user selected</source>
        <translation>未选择用户</translation>
    </message>
    <message>
        <source>%1 · namespace %2 · VC %3 · %4</source>
        <translation>%1 · 命名空间 %2 · 虚拟集群 %3 · %4</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>No quota: nothing limits what %1 may take.</source>
        <translation>没有配额：%1 可用的资源没有任何限制。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>the user&apos;s namespace is gone</source>
        <translation>该用户的命名空间已不存在</translation>
    </message>
    <message>
        <source>user %1, VC %2</source>
        <translation>用户 %1，虚拟集群 %2</translation>
    </message>
    <message>
        <source>ServiceAccount</source>
        <translation>ServiceAccount</translation>
    </message>
    <message>
        <source>present</source>
        <translation>存在</translation>
    </message>
    <message>
        <source>uid %1</source>
        <translation>uid %1</translation>
    </message>
    <message>
        <source>RoleBinding %1</source>
        <translation>RoleBinding %1</translation>
    </message>
    <message>
        <source>RoleBinding</source>
        <translation>RoleBinding</translation>
    </message>
    <message>
        <source>drifted</source>
        <translation>有偏差</translation>
    </message>
    <message>
        <source>%1 %2 for %3</source>
        <translation>%1 %2，授予 %3</translation>
    </message>
    <message>
        <source>ClusterRoleBinding</source>
        <translation>ClusterRoleBinding</translation>
    </message>
    <message>
        <source>%1 %2, cluster-wide</source>
        <translation>%1 %2，全集群范围</translation>
    </message>
    <message>
        <source>ResourceQuota %1</source>
        <translation>ResourceQuota %1</translation>
    </message>
    <message>
        <source>ResourceQuota</source>
        <translation>ResourceQuota</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>被修改</translation>
    </message>
    <message>
        <source>LimitRange</source>
        <translation>LimitRange</translation>
    </message>
    <message>
        <source>default requests %1</source>
        <translation>默认请求 %1</translation>
    </message>
    <message>
        <source>Token Secret</source>
        <translation>令牌 Secret</translation>
    </message>
    <message>
        <source>issued</source>
        <translation>已签发</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待签发</translation>
    </message>
    <message>
        <source>long-lived token of %1, made %2</source>
        <translation>%1 的长期令牌，创建于 %2</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>存储卷</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>default class</source>
        <translation>默认存储类</translation>
    </message>
    <message>
        <source>• could not read %1</source>
        <translation>• 无法读取 %1</translation>
    </message>
    <message>
        <source>Everything is as gpudesk makes it.</source>
        <translation>一切与 gpudesk 创建时一致。</translation>
    </message>
    <message>
        <source>Drift from what gpudesk makes:</source>
        <translation>与 gpudesk 创建时的差异：</translation>
    </message>
    <message>
        <source>GPUs in use: %1 · jobs running %2, waiting %3 (%4 stuck), failed %5 · dev environments %6</source>
        <translation>使用中的 GPU：%1 · 作业运行 %2 个、等待 %3 个（其中 %4 个卡住）、失败 %5 个 · 开发环境 %6 个</translation>
    </message>
</context>
<context>
    <name>gpudesk::UserDialog</name>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU cores</source>
        <translation>CPU 核数</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Pods</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Volume storage</source>
        <translation>存储卷容量</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a quantity (e.g. 8, 500m, 960Gi).</source>
        <translation>%1：“%2”不是有效的数量（例如 8、500m、960Gi）。</translation>
    </message>
    <message>
        <source>May read nodes and VCs</source>
        <translation>可以读取节点和虚拟集群</translation>
    </message>
    <message>
        <source>New user</source>
        <translation>新建用户</translation>
    </message>
    <message>
        <source>lower-case, e.g. zhangsan</source>
        <translation>小写，例如 zhangsan</translation>
    </message>
    <message>
        <source>(this cluster has no Volcano queues)</source>
        <translation>（该集群没有 Volcano 队列）</translation>
    </message>
    <message>
        <source>A ClusterRoleBinding to a role that reads nodes and queues, so that gpudesk and kubectl show the user where GPUs are free</source>
        <translation>绑定到一个可读取节点和队列的角色，让 gpudesk 和 kubectl 能告诉用户哪里有空闲 GPU</translation>
    </message>
    <message>
        <source>User name</source>
        <translation>用户名</translation>
    </message>
    <message>
        <source>VC</source>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>Role in their namespace</source>
        <translation>在其命名空间中的角色</translation>
    </message>
    <message>
        <source>Cluster-wide</source>
        <translation>全集群</translation>
    </message>
    <message>
        <source>&lt;b&gt;Quota&lt;/b&gt; (users&apos; rule of thumb: 12 CPU cores and 120 GiB of memory per GPU; 1 CPU per 10 GB)</source>
        <translation>&lt;b&gt;配额&lt;/b&gt;（经验值：每张 GPU 配 12 个 CPU 核和 120 GiB 内存；每 10 GB 内存配 1 个 CPU）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Defaults for containers that name no requests&lt;/b&gt;</source>
        <translation>&lt;b&gt;未声明请求值的容器的默认值&lt;/b&gt;</translation>
    </message>
    <message>
        <source>CPU request</source>
        <translation>CPU 请求</translation>
    </message>
    <message>
        <source>Memory request</source>
        <translation>内存请求</translation>
    </message>
    <message>
        <source>Memory limit</source>
        <translation>内存上限</translation>
    </message>
    <message>
        <source>Plan…</source>
        <translation>生成计划…</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a quantity.</source>
        <translation>%1：“%2”不是有效的数量。</translation>
    </message>
    <message>
        <source>The memory request is above the memory limit.</source>
        <translation>内存请求高于内存上限。</translation>
    </message>
</context>
<context>
    <name>gpudesk::UsersModel</name>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>VC</source>
        <comment>virtual cluster, a Volcano queue</comment>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>Being deleted</source>
        <translation>正在删除</translation>
    </message>
    <message>
        <source>Disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <source>No quota</source>
        <translation>无配额</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>%1: %2 used of %3</source>
        <translation>%1：已用 %2 / %3</translation>
    </message>
    <message>
        <source>%1: no limit</source>
        <translation>%1：不限</translation>
    </message>
    <message>
        <source>GPUs the user&apos;s pods hold on nodes now</source>
        <translation>该用户的 Pod 当前在节点上占用的 GPU</translation>
    </message>
    <message>
        <source>What the namespace&apos;s ResourceQuota counts as used, against its limit</source>
        <translation>命名空间的 ResourceQuota 统计的已用量，对比其限额</translation>
    </message>
    <message>
        <source>When the user last created a pod or a job</source>
        <translation>该用户最近一次创建 Pod 或作业的时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>GPUs in use</source>
        <translation>使用中的 GPU</translation>
    </message>
    <message>
        <source>GPU quota</source>
        <translation>GPU 配额</translation>
    </message>
    <message>
        <source>CPU quota</source>
        <translation>CPU 配额</translation>
    </message>
    <message>
        <source>Memory quota</source>
        <translation>内存配额</translation>
    </message>
    <message>
        <source>Pods</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Dev envs</source>
        <comment>dev environments</comment>
        <translation>开发环境</translation>
    </message>
    <message>
        <source>Last activity</source>
        <translation>最近活动</translation>
    </message>
    <message>
        <source>%1 (%2 stuck)</source>
        <translation>%1（%2 个卡住）</translation>
    </message>
    <message>
        <source>Jobs and pods waiting to be admitted or placed; stuck: waiting for a reason that will not go away by itself</source>
        <translation>等待准入或调度的作业和 Pod；卡住：所等待的原因不会自行消失</translation>
    </message>
    <message>
        <source>Jobs and pods that failed</source>
        <translation>失败的作业和 Pod</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
</context>
<context>
    <name>gpudesk::UsersPage</name>
    <message>
        <source>New user…</source>
        <translation>新建用户…</translation>
    </message>
    <message>
        <source>From CSV…</source>
        <translation>从 CSV 导入…</translation>
    </message>
    <message>
        <source>Quota…</source>
        <translation>配额…</translation>
    </message>
    <message>
        <source>Move to VC…</source>
        <translation>移到虚拟集群…</translation>
    </message>
    <message>
        <source>Disable…</source>
        <translation>停用…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Kubeconfig…</source>
        <translation>Kubeconfig…</translation>
    </message>
    <message>
        <source>Revoke tokens…</source>
        <translation>吊销令牌…</translation>
    </message>
    <message>
        <source>Filter: user, namespace, VC…</source>
        <translation>筛选：用户、命名空间、虚拟集群…</translation>
    </message>
    <message>
        <source>All VCs</source>
        <translation>全部虚拟集群</translation>
    </message>
    <message numerus="yes">
        <source>%n user(s) hold %1 GPUs; %2 disabled</source>
        <translation>
            <numerusform>%n 个用户占用 %1 张 GPU；%2 个已停用</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n user(s) hold %1 GPUs</source>
        <translation>
            <numerusform>%n 个用户占用 %1 张 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>you may not %1 %2</source>
        <translation>你无权 %1 %2</translation>
    </message>
    <message>
        <source>Not allowed: %1</source>
        <translation>不允许：%1</translation>
    </message>
    <message>
        <source>Make a user: namespace, ServiceAccount, RoleBinding, quota</source>
        <translation>创建用户：命名空间、ServiceAccount、RoleBinding、配额</translation>
    </message>
    <message>
        <source>Make many users from a CSV file</source>
        <translation>从 CSV 文件批量创建用户</translation>
    </message>
    <message>
        <source>Change the user&apos;s limits</source>
        <translation>修改该用户的限额</translation>
    </message>
    <message>
        <source>Bind the user to another VC</source>
        <translation>把该用户绑定到另一个虚拟集群</translation>
    </message>
    <message>
        <source>Disable: quota to zero and rights removed, reversibly</source>
        <translation>停用：配额清零并收回权限，可恢复</translation>
    </message>
    <message>
        <source>Delete the user&apos;s namespace and all in it</source>
        <translation>删除该用户的命名空间及其中的一切</translation>
    </message>
    <message>
        <source>Hand the user a kubeconfig</source>
        <translation>为该用户发放 kubeconfig</translation>
    </message>
    <message>
        <source>Make every token handed out stop working</source>
        <translation>让已发放的所有令牌失效</translation>
    </message>
    <message>
        <source>Enable…</source>
        <translation>启用…</translation>
    </message>
    <message>
        <source>Move %1 to another VC</source>
        <translation>把 %1 移到另一个虚拟集群</translation>
    </message>
    <message>
        <source>%1 is in VC %2. Move to:</source>
        <translation>%1 在虚拟集群 %2 中。移到：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>gpudesk::UsersService</name>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>create pods</source>
        <translation>创建 Pod</translation>
    </message>
    <message>
        <source>open a shell in pods (exec)</source>
        <translation>在 Pod 中打开终端（exec）</translation>
    </message>
    <message>
        <source>forward ports of pods (Jupyter, SSH)</source>
        <translation>转发 Pod 的端口（Jupyter、SSH）</translation>
    </message>
    <message>
        <source>read pod logs</source>
        <translation>读取 Pod 日志</translation>
    </message>
    <message>
        <source>submit Volcano jobs</source>
        <translation>提交 Volcano 作业</translation>
    </message>
    <message>
        <source>submit PyTorchJobs</source>
        <translation>提交 PyTorchJob</translation>
    </message>
    <message>
        <source>submit MPIJobs</source>
        <translation>提交 MPIJob</translation>
    </message>
    <message>
        <source>read their quota</source>
        <translation>读取自己的配额</translation>
    </message>
    <message>
        <source>read nodes</source>
        <translation>读取节点</translation>
    </message>
    <message>
        <source>read VCs (queues)</source>
        <translation>读取虚拟集群（队列）</translation>
    </message>
    <message>
        <source>read other users&apos; pods</source>
        <translation>读取其他用户的 Pod</translation>
    </message>
    <message>
        <source>the token controller did not fill the Secret within 10 s</source>
        <translation>令牌控制器在 10 秒内没有填充该 Secret</translation>
    </message>
    <message>
        <source>the server&apos;s answer holds no token</source>
        <translation>服务器的答复中没有令牌</translation>
    </message>
    <message>
        <source>the server does not accept the new token (%1): nothing was written</source>
        <translation>服务器不接受新令牌（%1）：未写入任何内容</translation>
    </message>
    <message>
        <source>Kubeconfig for %1</source>
        <translation>%1 的 kubeconfig</translation>
    </message>
    <message>
        <source>written</source>
        <translation>已写入</translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n 天</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message>
        <source>The server granted %1, not the %2 asked for: it caps the tokens it issues.</source>
        <translation>服务器只授予了 %1，而不是所申请的 %2：它限制了所签发令牌的有效期。</translation>
    </message>
</context>
<context>
    <name>gpudesk::VcsPage</name>
    <message>
        <source>New VC…</source>
        <translation>新建虚拟集群…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Close…</source>
        <translation>关闭…</translation>
    </message>
    <message>
        <source>Merge into…</source>
        <translation>合并到…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>This cluster serves no Volcano queues (scheduling.volcano.sh): it has no virtual clusters to manage. Install Volcano to divide GPUs between groups.</source>
        <translation>该集群没有 Volcano 队列（scheduling.volcano.sh）：没有可管理的虚拟集群。安装 Volcano 才能在各组之间划分 GPU。</translation>
    </message>
    <message>
        <source>Filter: VC, parent…</source>
        <translation>筛选：虚拟集群、父级…</translation>
    </message>
    <message numerus="yes">
        <source>%n VC(s) hold %1 GPUs; %2 wanted</source>
        <translation>
            <numerusform>%n 个虚拟集群占用 %1 张 GPU；需求 %2 张</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n VC(s) hold %1 of %2 GPUs; %3 wanted</source>
        <translation>
            <numerusform>%n 个虚拟集群占用 %1 / %2 张 GPU；需求 %3 张</numerusform>
        </translation>
    </message>
    <message>
        <source>you may not %1 %2</source>
        <translation>你无权 %1 %2</translation>
    </message>
    <message>
        <source>Not allowed: %1</source>
        <translation>不允许：%1</translation>
    </message>
    <message>
        <source>Make a VC</source>
        <translation>创建虚拟集群</translation>
    </message>
    <message>
        <source>Change its capability, deserved share, guarantee, weight or parent</source>
        <translation>修改其上限、应得份额、保障、权重或父级</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>开启…</translation>
    </message>
    <message>
        <source>Admit no new job; running jobs go on</source>
        <translation>不再接纳新作业；运行中的作业继续</translation>
    </message>
    <message>
        <source>Admit new jobs again</source>
        <translation>重新接纳新作业</translation>
    </message>
    <message>
        <source>Move its users and quota into another VC, then remove it</source>
        <translation>把其用户和配额移到另一个虚拟集群，然后移除它</translation>
    </message>
    <message>
        <source>Delete the VC</source>
        <translation>删除虚拟集群</translation>
    </message>
    <message>
        <source>Select a VC to see its users and jobs.</source>
        <translation>选择一个虚拟集群，查看其用户和作业。</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;Closing: admits no new job, and becomes Closed when its %n pod group(s) have ended.&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;关闭中：不再接纳新作业，其 %n 个 Pod 组结束后变为已关闭。&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Users&lt;/b&gt;: %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;用户&lt;/b&gt;：%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>none bound</source>
        <translation>未绑定用户</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Jobs&lt;/b&gt; (%1):&lt;br&gt;%2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;作业&lt;/b&gt;（%1）：&lt;br&gt;%2&lt;/p&gt;</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Merge VC %1</source>
        <translation>合并虚拟集群 %1</translation>
    </message>
    <message>
        <source>Move the users, capability, deserved share and guarantee of %1 into:</source>
        <translation>把 %1 的用户、上限、应得份额和保障移入：</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n GPU(s))</source>
        <translation>
            <numerusform>%1（%n 张 GPU）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1/%2: %3, %n GPU(s)%4</source>
        <translation>
            <numerusform>%1/%2：%3，%n 张 GPU%4</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpudesk::VerdictPanel</name>
    <message>
        <source>Checking whether it will start…</source>
        <translation>正在检查能否启动…</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>无法启动</translation>
    </message>
    <message>
        <source>Waits</source>
        <translation>需等待</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>提示</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n pod(s) on %2 (%3 of %4 free GPUs left)</source>
        <translation>
            <numerusform>%1：%n 个 Pod 放在 %2（空闲 GPU 从 %4 张剩 %3 张）</numerusform>
        </translation>
    </message>
    <message>
        <source>Run it as %1 × %2 GPUs (distributed)</source>
        <translation>改为 %1 × %2 GPU（分布式）</translation>
    </message>
</context>
<context>
    <name>gpudesk::VipMachinesBox</name>
    <message>
        <source>Run it as a VIP job on the machines ticked below, now</source>
        <translation>作为 VIP 作业，立即在下面勾选的机器上运行</translation>
    </message>
    <message>
        <source>Wait for them: the machines are reserved for the VIP job as they free</source>
        <translation>等待它们结束：机器空出时即为 VIP 作业保留</translation>
    </message>
    <message>
        <source>Stop them now: their owners are told why, in an Event on each job</source>
        <translation>立即停止它们：在每个作业上以事件告知其所有者原因</translation>
    </message>
    <message>
        <source>A VIP job takes whole machines that you choose. Its pods that ask for GPUs go only there, at the cluster&apos;s highest priority: nothing preempts it once it runs.</source>
        <translation>VIP 作业占用您选定的整台机器。它申请 GPU 的 Pod 只会调度到这些机器上，并使用集群最高的优先级：运行后不会被任何作业抢占。</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>占用者</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <source>VC</source>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>On</source>
        <translation>所在节点</translation>
    </message>
    <message>
        <source>Machines</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Running there now</source>
        <translation>当前在这些机器上运行</translation>
    </message>
    <message>
        <source>It runs at priority class %1 (%2), the cluster&apos;s highest, which never preempts: it waits for the jobs there, ahead of every other.</source>
        <translation>它以集群最高的优先级类 %1（%2）运行，该类从不抢占：它排在所有作业之前，等待这些机器上的作业结束。</translation>
    </message>
    <message>
        <source>It runs at priority class %1 (%2), the cluster&apos;s highest.</source>
        <translation>它以集群最高的优先级类 %1（%2）运行。</translation>
    </message>
    <message>
        <source>The cluster&apos;s PriorityClasses could not be read: %1</source>
        <translation>无法读取集群的优先级类：%1</translation>
    </message>
    <message>
        <source>The cluster has no PriorityClass at the top that never preempts: the job keeps its own priority, so that it waits for the jobs there instead of evicting them.</source>
        <translation>集群没有最高级别且从不抢占的 PriorityClass：作业保留自身的优先级，以便等待这些机器上的作业结束，而不是驱逐它们。</translation>
    </message>
    <message>
        <source>The cluster has no PriorityClass: the VIP job runs at the default priority.</source>
        <translation>集群没有 PriorityClass：VIP 作业以默认优先级运行。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <source>Reserved for the VIP job %1</source>
        <translation>为 VIP 作业 %1 保留</translation>
    </message>
    <message>
        <source>Its controller would start it again: it is waited for, not stopped.</source>
        <translation>其控制器会重新启动它：将等待它结束，而不是停止它。</translation>
    </message>
    <message>
        <source>Off: the job goes wherever the scheduler puts it.</source>
        <translation>关闭：作业由调度器决定运行位置。</translation>
    </message>
    <message>
        <source>Tick the machines the job must have.</source>
        <translation>勾选作业必须使用的机器。</translation>
    </message>
    <message numerus="yes">
        <source>Nothing holds GPUs on the %n machine(s) chosen: the job can start there at once.</source>
        <translation>
            <numerusform>所选的 %n 台机器上没有占用 GPU 的作业：作业可以立即在其上启动。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) of %1 hold %2 GPUs on the machines chosen.</source>
        <translation>
            <numerusform>%1 的 %n 个作业在所选机器上占用 %2 张 GPU。</numerusform>
        </translation>
    </message>
    <message>
        <source>The YAML still makes a VIP job (it tolerates a machine&apos;s VIP reservation): turn the VIP machines tab on, or take the toleration out.</source>
        <translation>YAML 仍然是一个 VIP 作业（它容忍机器的 VIP 保留）：请打开 VIP 机器选项卡，或删除该容忍。</translation>
    </message>
</context>
<context>
    <name>gpudesk::WaitExplainer</name>
    <message>
        <source>Fix: %1</source>
        <translation>修复：%1</translation>
    </message>
    <message>
        <source>(From its pod group&apos;s totals: its pods are not made yet.)</source>
        <translation>（按其 PodGroup 的总量估计：其 Pod 尚未创建。）</translation>
    </message>
</context>
<context>
    <name>gpudesk::WelcomePanel</name>
    <message>
        <source>Choose a kubeconfig file…</source>
        <translation>选择 kubeconfig 文件…</translation>
    </message>
    <message>
        <source>Welcome to gpudesk</source>
        <translation>欢迎使用 gpudesk</translation>
    </message>
    <message>
        <source>gpudesk connects to a Kubernetes cluster with a kubeconfig, as kubectl does: the files named by $KUBECONFIG (separated by colons), else ~/.kube/config. Your cluster&apos;s admin gives you one, or `kubectl config view --raw` prints the one you use.</source>
        <translation>gpudesk 像 kubectl 一样通过 kubeconfig 连接 Kubernetes 集群：使用 $KUBECONFIG 指定的文件（以冒号分隔），否则使用 ~/.kube/config。集群管理员会提供给您，或用 `kubectl config view --raw` 打印您正在使用的配置。</translation>
    </message>
    <message>
        <source>No cluster at hand? `make demo` in gpudesk&apos;s sources starts a simulated GPU cluster and opens gpudesk on it.</source>
        <translation>手头没有集群？在 gpudesk 源码目录中运行 `make demo`，会启动一个模拟的 GPU 集群并在其上打开 gpudesk。</translation>
    </message>
    <message>
        <source>Choose a kubeconfig file</source>
        <translation>选择 kubeconfig 文件</translation>
    </message>
    <message>
        <source>kubeconfig files (*config* *.yaml *.yml *.conf);;All files (*)</source>
        <translation>kubeconfig 文件 (*config* *.yaml *.yml *.conf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Looked at: %1</source>
        <translation>查找过：%1</translation>
    </message>
</context>
<context>
    <name>gpudesk::WorkloadsModel</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 等 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>VC</source>
        <comment>virtual cluster, a Volcano queue</comment>
        <translation>虚拟集群</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Restarts</source>
        <translation>重启次数</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>存在时长</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>gpudesk::WorkloadsPage</name>
    <message>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Failed or stuck</source>
        <translation>失败或卡住</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Any kind</source>
        <translation>任意类型</translation>
    </message>
    <message>
        <source>Filter: name, namespace, node, reason…</source>
        <translation>筛选：名称、命名空间、节点、原因…</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Ctrl+Y</source>
        <translation>Ctrl+Y</translation>
    </message>
    <message numerus="yes">
        <source>%n workload(s) shown of %1</source>
        <translation>
            <numerusform>显示 %n 个，共 %1 个工作负载</numerusform>
        </translation>
    </message>
    <message>
        <source>All users</source>
        <translation>全部用户</translation>
    </message>
    <message>
        <source>All VCs</source>
        <translation>全部虚拟集群</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>YAML</source>
        <translation>YAML</translation>
    </message>
    <message>
        <source>Hide pods</source>
        <translation>隐藏 Pod</translation>
    </message>
    <message>
        <source>Show pods</source>
        <translation>显示 Pod</translation>
    </message>
    <message>
        <source>%1 (not allowed: %2)</source>
        <translation>%1（无权限：%2）</translation>
    </message>
    <message numerus="yes">
        <source>Stop %n workload(s)…</source>
        <translation>
            <numerusform>停止 %n 个工作负载…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n workload(s)…</source>
        <translation>
            <numerusform>删除 %n 个工作负载…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2 in %3</source>
        <translation>在 %3 中 %1 %2</translation>
    </message>
    <message>
        <source>Run again…</source>
        <translation>重新运行…</translation>
    </message>
    <message>
        <source>No workload selected</source>
        <translation>未选择作业</translation>
    </message>
    <message>
        <source>stopped from the Workloads page</source>
        <translation>从工作负载页面停止</translation>
    </message>
    <message>
        <source>deleted from the Workloads page</source>
        <translation>从工作负载页面删除</translation>
    </message>
    <message>
        <source>New training job…</source>
        <translation>新建训练作业…</translation>
    </message>
    <message>
        <source>Submit a PyTorchJob, MPIJob, Volcano Job or pod, knowing first whether it will start</source>
        <translation>提交 PyTorchJob、MPIJob、Volcano Job 或 Pod，提交前先知道它能否启动</translation>
    </message>
    <message>
        <source>The job doctor&apos;s causes of failed jobs, and how many jobs each</source>
        <translation>作业诊断找出的失败原因，以及每种原因涉及的作业数</translation>
    </message>
    <message>
        <source>Any cause</source>
        <translation>任意原因</translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n job(s)</source>
        <translation>
            <numerusform>%1 —— %n 个作业</numerusform>
        </translation>
    </message>
    <message>
        <source>New training job like this…</source>
        <translation>以此为模板新建训练作业…</translation>
    </message>
</context>
<context>
    <name>gpudesk::YamlEditDialog</name>
    <message>
        <source>Check with the server</source>
        <translation>由服务器检查</translation>
    </message>
    <message>
        <source>Apply…</source>
        <translation>应用…</translation>
    </message>
    <message>
        <source>Create…</source>
        <translation>创建…</translation>
    </message>
    <message>
        <source>Start again from the newer version</source>
        <translation>从较新的版本重新开始</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>编辑 %1</translation>
    </message>
    <message>
        <source>Run again: a new object</source>
        <translation>重新运行：新对象</translation>
    </message>
    <message>
        <source>What the server would store, as a diff, once checked.</source>
        <translation>检查后，此处以差异形式显示服务器将保存的内容。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Edit the object on the left; the server checks it and the change shows on the right before anything is applied.</source>
        <translation>在左侧编辑对象；服务器会先检查，修改内容会在应用前显示在右侧。</translation>
    </message>
    <message>
        <source>A copy to run again, under a new name: change what you need; the server checks it before it is created.</source>
        <translation>这是用于重新运行的副本，使用新名称：按需修改；创建前服务器会先检查。</translation>
    </message>
    <message>
        <source>Asking the server…</source>
        <translation>正在询问服务器…</translation>
    </message>
    <message>
        <source>The object changed since you opened it; the server would refuse this edit: %1</source>
        <translation>对象在您打开后已被修改；服务器会拒绝此编辑：%1</translation>
    </message>
    <message>
        <source>The server would refuse it: %1</source>
        <translation>服务器会拒绝：%1</translation>
    </message>
    <message>
        <source>now</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>as the server would store it</source>
        <translation>服务器将保存的版本</translation>
    </message>
    <message>
        <source>No change.</source>
        <translation>没有变化。</translation>
    </message>
    <message>
        <source>The server would store it unchanged: nothing to apply.</source>
        <translation>服务器会原样保存：没有需要应用的修改。</translation>
    </message>
    <message>
        <source>The server would accept it. Nothing has been changed yet.</source>
        <translation>服务器会接受。尚未做任何修改。</translation>
    </message>
    <message>
        <source>Applied: %1</source>
        <translation>已应用：%1</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <source>when you opened it</source>
        <translation>您打开时</translation>
    </message>
    <message>
        <source>Loaded the newer version; the diff shows what changed on the server meanwhile. Make your change again and check it.</source>
        <translation>已加载较新的版本；差异显示了这期间服务器上的变化。请重新修改并检查。</translation>
    </message>
    <message>
        <source>Replace your edit with the newer version? Ctrl+Z in the editor brings your edit back.</source>
        <translation>用较新的版本替换你的编辑？在编辑器中按 Ctrl+Z 可恢复你的编辑。</translation>
    </message>
    <message>
        <source>The server would accept it; comparing it with what it has…</source>
        <translation>服务器会接受；正在与服务器上的版本比较…</translation>
    </message>
</context>
<context>
    <name>gpudesk::nodecmd</name>
    <message>
        <source>The node runs CRI-O, which offers no commit of a running container: save the environment&apos;s files to its home volume instead, or build an image from a Dockerfile.</source>
        <translation>该节点运行 CRI-O，它不支持提交运行中的容器：请改为把环境中的文件保存到主目录卷，或用 Dockerfile 构建镜像。</translation>
    </message>
    <message>
        <source>The node&apos;s container runtime (%1) is not one gpudesk can commit a container with (containerd or Docker).</source>
        <translation>该节点的容器运行时（%1）不是 gpudesk 能用来提交容器的运行时（containerd 或 Docker）。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a NAS root: an absolute path of letters, digits and ._-+@/</source>
        <translation>“%1”不是 NAS 根目录：应为由字母、数字和 ._-+@/ 组成的绝对路径</translation>
    </message>
    <message>
        <source>&quot;%1&quot; climbs out with &quot;..&quot;</source>
        <translation>“%1”用“..”跳出了根目录</translation>
    </message>
    <message>
        <source>The whole filesystem (/) is not a NAS root</source>
        <translation>整个文件系统（/）不能作为 NAS 根目录</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Desktop console for GPU training clusters on Kubernetes.</source>
        <translation>面向 Kubernetes GPU 训练集群的桌面控制台。</translation>
    </message>
    <message>
        <source>Use this kubeconfig file instead of $KUBECONFIG or ~/.kube/config.</source>
        <translation>使用此 kubeconfig 文件，而不是 $KUBECONFIG 或 ~/.kube/config。</translation>
    </message>
    <message>
        <source>Connect to this kubeconfig context.</source>
        <translation>连接到此 kubeconfig 上下文。</translation>
    </message>
    <message>
        <source>Sync, write what the dashboards show as JSON to this file, and exit.</source>
        <translation>同步集群状态，把仪表盘所示数据以 JSON 写入此文件，然后退出。</translation>
    </message>
    <message>
        <source>Reach the nodes with this OpenSSH client config instead of ~/.ssh/config.</source>
        <translation>使用此 OpenSSH 客户端配置连接节点，而不是 ~/.ssh/config。</translation>
    </message>
    <message>
        <source>Do not connect to the nodes over SSH.</source>
        <translation>不通过 SSH 连接节点。</translation>
    </message>
    <message>
        <source>Show GPU history older than this session from this Prometheus (URL).</source>
        <translation>从此 Prometheus（URL）显示本次会话之前的 GPU 历史数据。</translation>
    </message>
    <message>
        <source>Find what holds GPUs and should not; &quot;plan&quot; writes the plan as JSON on stdout, &quot;apply&quot; runs it and writes the results (docs/cleanup.md).</source>
        <translation>查找不应占用 GPU 的对象；“plan”将计划以 JSON 写到标准输出，“apply”执行计划并写出结果（见 docs/cleanup.md）。</translation>
    </message>
    <message>
        <source>With --cleanup: GPUs idle at least this long count as idle (90m, 2h, 1d).</source>
        <translation>配合 --cleanup：闲置至少这么久的 GPU 视为闲置（90m、2h、1d）。</translation>
    </message>
    <message>
        <source>--cleanup takes plan or apply, not &quot;%1&quot;.</source>
        <translation>--cleanup 只接受 plan 或 apply，而不是“%1”。</translation>
    </message>
    <message>
        <source>--idle-for: &quot;%1&quot; is not a duration (90m, 2h, 1d).</source>
        <translation>--idle-for：“%1”不是有效的时长（90m、2h、1d）。</translation>
    </message>
    <message>
        <source>Bridge stdin and stdout to a dev environment&apos;s port (an ssh ProxyCommand), following the environment to its current pod.</source>
        <translation>将标准输入和输出桥接到开发环境的端口（用作 ssh 的 ProxyCommand），并跟随环境切换到其当前的 Pod。</translation>
    </message>
    <message>
        <source>A shell (bash, else sh) in a dev environment&apos;s current pod over the API&apos;s exec, in this terminal: for images without an SSH server.</source>
        <translation>在本终端中通过 API 的 exec 打开开发环境当前 Pod 中的 shell（优先 bash，否则 sh）：用于没有 SSH 服务器的镜像。</translation>
    </message>
    <message>
        <source>Print gpudesk&apos;s debug log and Qt&apos;s own warnings on stderr (secrets are never logged).</source>
        <translation>在 stderr 上打印 gpudesk 的调试日志和 Qt 自身的警告（绝不记录机密信息）。</translation>
    </message>
    <message>
        <source>Sync, print the alerts that fire now as JSON, and exit 0 (none), 1 (warnings), 2 (critical) or 3 (the cluster could not be read).</source>
        <translation>同步集群，以 JSON 输出当前触发的告警并退出：0（无）、1（警告）、2（严重）或 3（无法读取集群）。</translation>
    </message>
    <message>
        <source>With --cleanup: also drain these nodes (comma-separated) where a finding&apos;s remedy is a drain; it evicts every pod on them, so each is named here.</source>
        <translation>与 --cleanup 一起使用：对处理方式为排空的发现，也排空这些节点（逗号分隔）；排空会驱逐节点上的所有 Pod，因此须在此逐一写明节点名称。</translation>
    </message>
    <message>
        <source>With --cleanup apply: run without asking. With --submit: create the job.</source>
        <translation>与 --cleanup apply 一起使用：不经询问直接执行。与 --submit 一起使用：创建作业。</translation>
    </message>
    <message>
        <source>Check whether this job (YAML or JSON; - for stdin) would start now, wait or never start, print the verdict as JSON and exit 0, 1 or 2 (3: the cluster could not be read); with --yes, then create it (docs/submit.md).</source>
        <translation>检查该作业（YAML 或 JSON；- 表示标准输入）是会立即启动、排队等待还是永远无法启动，以 JSON 打印结论，退出码为 0、1 或 2（3：无法读取集群）；加 --yes 则随后创建它（见 docs/submit.md）。</translation>
    </message>
    <message>
        <source>With --submit: only check; create nothing.</source>
        <translation>与 --submit 一起使用：只检查，不创建任何东西。</translation>
    </message>
    <message>
        <source>--check and --yes contradict each other: choose one.</source>
        <translation>--check 与 --yes 相互矛盾：请只选一个。</translation>
    </message>
    <message>
        <source>With --cleanup: only these finding classes, comma-separated (orphan-process, stuck-terminating, idle-gpus, …; the NAS&apos;s nas-stale-file, nas-core-dump, nas-departed-user only when named).</source>
        <translation>与 --cleanup 一起使用：只处理这些发现类别，以逗号分隔（orphan-process、stuck-terminating、idle-gpus 等；NAS 的 nas-stale-file、nas-core-dump、nas-departed-user 仅在指明时处理）。</translation>
    </message>
    <message>
        <source>With --report (or --cleanup with a NAS class): walk the NAS now, even if its last walk is younger than the interval set (docs/storage.md).</source>
        <translation>与 --report（或带 NAS 类别的 --cleanup）一起使用：立即扫描 NAS，即使上次扫描比设定的间隔更近（见 docs/storage.md）。</translation>
    </message>
</context>
<context>
    <name>nodecmd</name>
    <message>
        <source>The jump host &quot;%1&quot; is not a host name.</source>
        <translation>跳板机“%1”不是有效的主机名。</translation>
    </message>
    <message>
        <source>Cannot build a jump to %1:%2.</source>
        <translation>无法构造到 %1:%2 的跳转。</translation>
    </message>
</context>
<context>
    <name>status</name>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>已成功</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Terminating</source>
        <translation>终止中</translation>
    </message>
    <message>
        <source>ContainerCreating</source>
        <translation>容器创建中</translation>
    </message>
    <message>
        <source>CrashLoopBackOff</source>
        <translation>反复崩溃</translation>
    </message>
    <message>
        <source>ImagePullBackOff</source>
        <translation>镜像拉取失败</translation>
    </message>
    <message>
        <source>ErrImagePull</source>
        <translation>镜像拉取错误</translation>
    </message>
    <message>
        <source>OOMKilled</source>
        <translation>内存不足被杀</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>已创建</translation>
    </message>
    <message>
        <source>Inqueue</source>
        <translation>已入队</translation>
    </message>
    <message>
        <source>Aborted</source>
        <translation>已中止</translation>
    </message>
    <message>
        <source>Restarting</source>
        <translation>重启中</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>NotReady</source>
        <translation>未就绪</translation>
    </message>
    <message>
        <source>SchedulingDisabled</source>
        <translation>禁止调度</translation>
    </message>
    <message>
        <source>DiskPressure</source>
        <translation>磁盘压力</translation>
    </message>
    <message>
        <source>MemoryPressure</source>
        <translation>内存压力</translation>
    </message>
    <message>
        <source>PIDPressure</source>
        <translation>进程数压力</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>开放</translation>
    </message>
    <message>
        <source>Closing</source>
        <translation>关闭中</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>已调度</translation>
    </message>
    <message>
        <source>FailedScheduling</source>
        <translation>调度失败</translation>
    </message>
    <message>
        <source>Preempted</source>
        <translation>被抢占</translation>
    </message>
    <message>
        <source>Pulling</source>
        <translation>正在拉取镜像</translation>
    </message>
    <message>
        <source>Pulled</source>
        <translation>已拉取镜像</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>已启动</translation>
    </message>
    <message>
        <source>Killing</source>
        <translation>正在终止</translation>
    </message>
    <message>
        <source>BackOff</source>
        <translation>退避重试</translation>
    </message>
    <message>
        <source>Evicted</source>
        <translation>被驱逐</translation>
    </message>
    <message>
        <source>Unhealthy</source>
        <translation>健康检查失败</translation>
    </message>
    <message>
        <source>FailedMount</source>
        <translation>挂载失败</translation>
    </message>
    <message>
        <source>FailedCreate</source>
        <translation>创建失败</translation>
    </message>
    <message>
        <source>SuccessfulCreate</source>
        <translation>创建成功</translation>
    </message>
    <message>
        <source>SuccessfulDelete</source>
        <translation>删除成功</translation>
    </message>
    <message>
        <source>NodeNotReady</source>
        <translation>节点未就绪</translation>
    </message>
    <message>
        <source>Unschedulable</source>
        <translation>无法调度</translation>
    </message>
    <message>
        <source>EvictionThresholdMet</source>
        <translation>达到驱逐阈值</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>已保留</translation>
    </message>
</context>
</TS>
