<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <source>The API server&apos;s node list is not valid JSON.</source>
        <translation>API 服务器返回的节点列表不是有效的 JSON。</translation>
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
        <source>Reconnect</source>
        <translation>重新连接</translation>
    </message>
    <message>
        <source>GPUs (allocatable)</source>
        <translation>GPU（可分配）</translation>
    </message>
    <message>
        <source>Nodes ready / total</source>
        <translation>节点（就绪 / 总数）</translation>
    </message>
    <message>
        <source>Kubernetes version</source>
        <translation>Kubernetes 版本</translation>
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
        <source>Choose a kubeconfig context to connect to.</source>
        <translation>请选择要连接的 kubeconfig 上下文。</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <source>Connected to %1</source>
        <translation>已连接到 %1</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Cannot connect to %1</source>
        <translation>无法连接到 %1</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>连接失败</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
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
        <source>warning: TLS verification is off for context %1</source>
        <translation>警告：上下文 %1 已关闭 TLS 校验</translation>
    </message>
    <message>
        <source>Sync, write what the dashboards show as JSON to this file, and exit.</source>
        <translation>同步集群状态，把仪表盘所示数据以 JSON 写入此文件，然后退出。</translation>
    </message>
</context>
</TS>
