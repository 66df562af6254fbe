<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DemoStore</name>
    <message>
        <source>cannot make %1 private to its owner</source>
        <translation>无法将 %1 设为仅其所有者可访问</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message numerus="yes">
        <source>%1 · %2 · %3 · %n step(s)</source>
        <translation>
            <numerusform>%1 · %2 · %3 · %n 个步骤</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>session %1 · %2 · policy %3 · %n step(s)</source>
        <translation>
            <numerusform>会话 %1 · %2 · 策略 %3 · %n 个步骤</numerusform>
        </translation>
    </message>
    <message>
        <source>No such step in this session.</source>
        <translation>此会话中没有该步骤。</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>
rule: %1</source>
        <translation>
规则：%1</translation>
    </message>
    <message>
        <source>
%1</source>
        <translation>
%1</translation>
    </message>
    <message>
        <source>
arguments edited by a person</source>
        <translation>
参数已由人工编辑</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Demo transactions</source>
        <translation>演示交易</translation>
    </message>
    <message>
        <source>%1: not a .csv, .jsonl or .ndjson file</source>
        <translation>%1：不是 .csv、.jsonl 或 .ndjson 文件</translation>
    </message>
    <message>
        <source>stored %1</source>
        <translation>已存储 %1</translation>
    </message>
    <message>
        <source>stored %1 of sandbox %2</source>
        <translation>已存储沙箱 %2 的 %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid dataset name (letters, digits, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;)</source>
        <translation>“%1”不是有效的数据集名称（仅限字母、数字、“_”、“-”、“.”）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>the worked example: its files</source>
        <translation>示例：其文件</translation>
    </message>
    <message>
        <source>the worked example: its sandboxes</source>
        <translation>示例：其沙箱</translation>
    </message>
    <message>
        <source>the worked example: the agent&apos;s session</source>
        <translation>示例：智能体的会话</translation>
    </message>
    <message>
        <source>no store to record its session in (%1)</source>
        <translation>没有可记录其会话的存储（%1）</translation>
    </message>
    <message>
        <source>none is open</source>
        <translation>未打开任何存储</translation>
    </message>
    <message>
        <source>Worked example: could not run: %1</source>
        <translation>示例：无法运行：%1</translation>
    </message>
    <message numerus="yes">
        <source>Worked example: agent session %1 %2, %n step(s) in sandbox %3</source>
        <translation>
            <numerusform>示例：智能体会话 %1 %2，沙箱 %3 中共 %n 个步骤</numerusform>
        </translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（默认）</translation>
    </message>
</context>
<context>
    <name>checkpoint progress</name>
    <message>
        <source>writing</source>
        <translation>正在写入</translation>
    </message>
    <message>
        <source>scanning</source>
        <translation>正在扫描</translation>
    </message>
    <message>
        <source>diffing</source>
        <translation>正在比较</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>The store file to use (default: $SANDBENCH_STORE or the user&apos;s data folder).</source>
        <translation>要使用的存储文件（默认：$SANDBENCH_STORE 或用户数据文件夹）。</translation>
    </message>
    <message>
        <source>PATH</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Run code you do not trust in an OS sandbox.</source>
        <translation>在操作系统沙箱中运行您不信任的代码。</translation>
    </message>
    <message>
        <source>Sandbench</source>
        <translation>Sandbench</translation>
    </message>
    <message>
        <source>Store unavailable</source>
        <translation>存储不可用</translation>
    </message>
    <message>
        <source>The store could not be opened:
%1

%2</source>
        <translation>无法打开存储：
%1

%2</translation>
    </message>
    <message>
        <source>You can still edit and run snippets; runs are not recorded and the file is left untouched.</source>
        <translation>您仍可编辑和运行代码片段；运行不会被记录，文件保持不变。</translation>
    </message>
    <message>
        <source>Open a new demo store, for training: snippets of every outcome, the rules demo, an agent session, sandboxes with checkpoints, and Play demo. It lives in a private temporary folder removed when the window closes; your own store is not touched.</source>
        <translation>打开一个新的演示存储，用于培训：涵盖每种结果的代码片段、规则演示、一个智能体会话、带检查点的沙箱，以及演示导览。它位于一个私有临时文件夹中，窗口关闭时删除；您自己的存储不受影响。</translation>
    </message>
    <message>
        <source>%1: --demo opens a new demo store of its own and cannot be used with --store.
</source>
        <translation>%1：--demo 会打开一个独立的新演示存储，不能与 --store 一起使用。
</translation>
    </message>
    <message>
        <source>%1: the demo store could not be made: %2
</source>
        <translation>%1：无法创建演示存储：%2
</translation>
    </message>
</context>
<context>
    <name>promotion risk</name>
    <message>
        <source>binary file {} (added, {} bytes): it cannot be reviewed as text</source>
        <translation>二进制文件 {}（新增，{} 字节）：无法作为文本审阅</translation>
    </message>
    <message>
        <source>binary file {} (changed, {} bytes): it cannot be reviewed as text</source>
        <translation>二进制文件 {}（已更改，{} 字节）：无法作为文本审阅</translation>
    </message>
    <message>
        <source>{} binary files added or changed, e.g. {} (added, {} bytes): they cannot be reviewed as text</source>
        <translation>新增或更改了 {} 个二进制文件，例如 {}（新增，{} 字节）：无法作为文本审阅</translation>
    </message>
    <message>
        <source>{} binary files added or changed, e.g. {} (changed, {} bytes): they cannot be reviewed as text</source>
        <translation>新增或更改了 {} 个二进制文件，例如 {}（已更改，{} 字节）：无法作为文本审阅</translation>
    </message>
    <message>
        <source>{} files changed (more than {})</source>
        <translation>{} 个文件已更改（超过 {} 个）</translation>
    </message>
    <message>
        <source>{} files removed (more than {})</source>
        <translation>{} 个文件已删除（超过 {} 个）</translation>
    </message>
    <message>
        <source>{} lines changed (more than {})</source>
        <translation>{} 行已更改（超过 {} 行）</translation>
    </message>
    <message>
        <source>{} bytes changed (more than {})</source>
        <translation>{} 字节已更改（超过 {} 字节）</translation>
    </message>
    <message>
        <source>policy file {} changed</source>
        <translation>策略文件 {} 已更改</translation>
    </message>
    <message>
        <source>{} changed (a watched path)</source>
        <translation>{} 已更改（受监视的路径）</translation>
    </message>
    <message>
        <source>rule set {} is new: production decides by it from now on, and there is no current version to measure its impact against</source>
        <translation>规则集 {} 是新的：生产环境将从此按它决策，且没有当前版本可用来衡量其影响</translation>
    </message>
    <message>
        <source>rule set {} changed; its impact is not measured (no dataset: name one with --data, or refer the sandbox to one)</source>
        <translation>规则集 {} 已更改；其影响未经衡量（没有数据集：用 --data 指定一个，或让沙箱引用一个）</translation>
    </message>
    <message>
        <source>rule set {} changed; its impact cannot be measured: it does not compile against {}</source>
        <translation>规则集 {} 已更改；无法衡量其影响：它无法针对 {} 编译</translation>
    </message>
    <message>
        <source>rule set {} changes the decision of {} of {} records in {} (impact rate {} %)</source>
        <translation>规则集 {0} 改变了 {2} 条记录中 {1} 条的决策（数据：{3}，影响率 {4} %）</translation>
    </message>
    <message>
        <source>rule set {} changes the decision of {} of {} records in {} (impact rate {} %, above the high threshold of {} %)</source>
        <translation>规则集 {0} 改变了 {2} 条记录中 {1} 条的决策（数据：{3}，影响率 {4} %，高于高风险阈值 {5} %）</translation>
    </message>
    <message>
        <source>rule set {} changes the decision of {} of {} records in {} (impact rate {} %, above the medium threshold of {} %)</source>
        <translation>规则集 {0} 改变了 {2} 条记录中 {1} 条的决策（数据：{3}，影响率 {4} %，高于中风险阈值 {5} %）</translation>
    </message>
</context>
<context>
    <name>run outcome</name>
    <message>
        <source>ran at level &apos;{}&apos;: &apos;{}&apos; is not available here and the policy allows a lower level</source>
        <translation>以级别“{}”运行：此处无法使用“{}”，且策略允许更低的级别</translation>
    </message>
    <message>
        <source>a syscall rule of the policy ended the run</source>
        <translation>策略的一条系统调用规则终止了运行</translation>
    </message>
    <message>
        <source>the policy ends the run on {}</source>
        <translation>策略因 {} 终止了运行</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>wall-clock limit of {} ms reached; every process of the run was killed</source>
        <translation>已达到 {} 毫秒的运行时间上限；运行的所有进程均已被终止</translation>
    </message>
    <message>
        <source>CPU time limit of {} ms reached</source>
        <translation>已达到 {} 毫秒的 CPU 时间上限</translation>
    </message>
    <message>
        <source>memory limit of {} MiB reached</source>
        <translation>已达到 {} MiB 的内存上限</translation>
    </message>
    <message>
        <source>disk quota of {} MiB reached: the run was ended</source>
        <translation>已达到 {} MiB 的磁盘配额：运行已终止</translation>
    </message>
    <message>
        <source>the policy refuses the snippet&apos;s import of &apos;{}&apos; (line {})</source>
        <translation>策略拒绝代码片段导入“{}”（第 {} 行）</translation>
    </message>
    <message>
        <source>the policy refused {} {}</source>
        <translation>策略拒绝了 {} {}</translation>
    </message>
    <message>
        <source>killed by signal {} ({})</source>
        <translation>被信号 {}（{}）终止</translation>
    </message>
    <message>
        <source>exited with status {}</source>
        <translation>以状态 {} 退出</translation>
    </message>
    <message>
        <source>memory limit of {} MiB reached: a process of the run asked for {} MiB more address space with {} MiB mapped already</source>
        <translation>已达到 {} MiB 的内存上限：运行的一个进程在已映射 {2} MiB 的情况下又申请了 {1} MiB 地址空间</translation>
    </message>
    <message>
        <source>memory limit of {} MiB reached: the kernel ended a process of the run</source>
        <translation>已达到 {} MiB 的内存上限：内核终止了运行的一个进程</translation>
    </message>
    <message>
        <source>CPU time limit of {} ms reached: the run used {} ms of CPU time in all</source>
        <translation>已达到 {} 毫秒的 CPU 时间上限：运行共使用了 {} 毫秒 CPU 时间</translation>
    </message>
    <message>
        <source>CPU time limit of {} ms reached: the run&apos;s processes used {} ms of CPU time in all</source>
        <translation>已达到 {} 毫秒的 CPU 时间上限：运行的各进程共使用了 {} 毫秒 CPU 时间</translation>
    </message>
    <message>
        <source>memory limit of {} MiB reached: the run&apos;s {} processes held {} MiB of memory together</source>
        <translation>已达到 {} MiB 的内存上限：运行的 {} 个进程共占用 {} MiB 内存</translation>
    </message>
</context>
<context>
    <name>sb::ui</name>
    <message>
        <source>category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>series</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Save chart as PNG…</source>
        <translation>将图表另存为 PNG…</translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Save data as CSV…</source>
        <translation>将数据另存为 CSV…</translation>
    </message>
    <message>
        <source>Save chart data</source>
        <translation>保存图表数据</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近一小时</translation>
    </message>
    <message>
        <source>Last day</source>
        <translation>最近一天</translation>
    </message>
    <message>
        <source>Last week</source>
        <translation>最近一周</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>全部时间</translation>
    </message>
    <message>
        <source>minute</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>hour</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>day</source>
        <translation>天</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
</context>
<context>
    <name>sb::ui::ActivityCharts</name>
    <message>
        <source>Blocked events by kind</source>
        <translation>按类型统计的被阻止事件</translation>
    </message>
    <message>
        <source>Most blocked targets</source>
        <translation>被阻止最多的目标</translation>
    </message>
    <message>
        <source>Agent steps by verdict</source>
        <translation>按裁决统计的智能体步骤</translation>
    </message>
    <message>
        <source>Recent promotions</source>
        <translation>最近的发布</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Promotion</source>
        <translation>发布</translation>
    </message>
    <message>
        <source>Risk</source>
        <translation>风险</translation>
    </message>
    <message>
        <source>Approved by</source>
        <translation>审批人</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>No promotion in this span of time. Promote a sandbox from Checkpoints.</source>
        <translation>此时间段内没有发布。可在“检查点”中发布沙箱。</translation>
    </message>
    <message>
        <source>Save as CSV…</source>
        <translation>另存为 CSV…</translation>
    </message>
    <message>
        <source>Save promotions</source>
        <translation>保存发布记录</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Hover a bar for its count; right-click to save the chart or its data</source>
        <translation>将鼠标悬停在条形上可查看其数量；右键单击可保存图表或其数据</translation>
    </message>
    <message>
        <source>%1: %2 (%3 % of %4)</source>
        <translation>%1：%2（占 %4 的 %3 %）</translation>
    </message>
    <message>
        <source>Blocked events by kind: none</source>
        <translation>按类型统计的被阻止事件：无</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Blocked events</source>
        <translation>被阻止的事件</translation>
    </message>
    <message>
        <source>%1 — %2: %3</source>
        <translation>%1 — %2：%3</translation>
    </message>
    <message>
        <source>Most blocked targets: none</source>
        <translation>被阻止最多的目标：无</translation>
    </message>
    <message>
        <source>Most blocked targets (%1 more elsewhere)</source>
        <translation>被阻止最多的目标（其他位置另有 %1 个）</translation>
    </message>
    <message>
        <source>Blocked target</source>
        <translation>被阻止的目标</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1 of a verdict this version does not know (%2 % of %3)</source>
        <translation>%1 个裁决为此版本未知（占 %3 的 %2 %）</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>裁决</translation>
    </message>
    <message>
        <source>Agent steps</source>
        <translation>智能体步骤</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>（未知）</translation>
    </message>
    <message>
        <source>%1 by %2</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Sandbox %1 promoted into %2; checkpoint %3</source>
        <translation>沙箱 %1 已发布到 %2；检查点 %3</translation>
    </message>
    <message>
        <source>(not recorded)</source>
        <translation>（未记录）</translation>
    </message>
    <message>
        <source>no approval</source>
        <translation>无审批</translation>
    </message>
    <message>
        <source>Promoted without an approval</source>
        <translation>未经审批即发布</translation>
    </message>
    <message>
        <source>Approved by %1: %2</source>
        <translation>由 %1 审批：%2</translation>
    </message>
    <message>
        <source>applied after a crash</source>
        <translation>崩溃后应用</translation>
    </message>
    <message>
        <source>applied</source>
        <translation>已应用</translation>
    </message>
</context>
<context>
    <name>sb::ui::AgentLaunchJob</name>
    <message>
        <source>the launch ended without an outcome</source>
        <translation>启动结束时没有结果</translation>
    </message>
    <message>
        <source>the store is not open</source>
        <translation>存储未打开</translation>
    </message>
</context>
<context>
    <name>sb::ui::AgentLauncher</name>
    <message>
        <source>Launch agent…</source>
        <translation>启动智能体…</translation>
    </message>
    <message>
        <source>Stop agent</source>
        <translation>停止智能体</translation>
    </message>
    <message>
        <source>Run an agent (the worked example, or any command) with a policy and a sandbox; its session shows here live</source>
        <translation>使用策略和沙箱运行智能体（示例或任意命令）；其会话会实时显示在此处</translation>
    </message>
    <message>
        <source>End the launched session: the call waiting is refused and the agent stopped</source>
        <translation>结束已启动的会话：拒绝正在等待的调用并停止智能体</translation>
    </message>
    <message>
        <source>the worked example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Launching %1…</source>
        <translation>正在启动 %1…</translation>
    </message>
    <message>
        <source>Stopping %1…</source>
        <translation>正在停止 %1…</translation>
    </message>
    <message>
        <source>Session %1 of %2 runs.</source>
        <translation>%2 的会话 %1 正在运行。</translation>
    </message>
    <message>
        <source>Launch of %1 refused: %2</source>
        <translation>%1 的启动被拒绝：%2</translation>
    </message>
    <message numerus="yes">
        <source>Session %1 of %2 %3, %n step(s)</source>
        <translation>
            <numerusform>%2 的会话 %1 %3，共 %n 个步骤</numerusform>
        </translation>
    </message>
    <message>
        <source>The store is not open: a session has nowhere to be recorded</source>
        <translation>存储未打开：会话无处记录</translation>
    </message>
    <message>
        <source>A launched session runs: stop it or let it end first</source>
        <translation>已启动的会话正在运行：请先停止它或等待其结束</translation>
    </message>
    <message>
        <source>The demo is recording the worked example: launch when it has ended</source>
        <translation>演示正在录制示例：请在其结束后再启动</translation>
    </message>
</context>
<context>
    <name>sb::ui::AgentTimeline</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>Steps as bars on a time axis, coloured by verdict; checkpoints marked above, search matches below. Click a step to select it, Shift+drag to select a range; Ctrl+wheel or +/- zoom, drag, wheel or the arrow keys pan, 0 shows the whole session.</source>
        <translation>步骤以时间轴上的条形显示，按裁决着色；检查点标在上方，搜索匹配项标在下方。单击步骤可选中它，Shift+拖动可选择范围；Ctrl+滚轮或 +/- 缩放，拖动、滚轮或方向键平移，0 显示整个会话。</translation>
    </message>
    <message>
        <source>No steps to show</source>
        <translation>没有可显示的步骤</translation>
    </message>
    <message>
        <source>, result is an error</source>
        <translation>，结果为错误</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt; · %2&lt;br&gt;%3&lt;br&gt;%4 · cost %5 (so far %6)&lt;br&gt;&lt;code&gt;%7&lt;/code&gt;</source>
        <translation>&lt;b&gt;步骤 %1&lt;/b&gt; · %2&lt;br&gt;%3&lt;br&gt;%4 · 开销 %5（累计 %6）&lt;br&gt;&lt;code&gt;%7&lt;/code&gt;</translation>
    </message>
</context>
<context>
    <name>sb::ui::AgentWorkspace</name>
    <message>
        <source>Search tools, arguments, results…</source>
        <translation>搜索工具、参数、结果…</translation>
    </message>
    <message>
        <source>Steps whose tool, arguments, result, reasoning or message contain the text; Enter goes to the next</source>
        <translation>工具、参数、结果、推理或消息中包含该文本的步骤；按 Enter 转到下一个</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>上一个匹配项</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>下一个匹配项</translation>
    </message>
    <message>
        <source>Zoom in on the timeline (+, Ctrl+wheel)</source>
        <translation>放大时间轴（+、Ctrl+滚轮）</translation>
    </message>
    <message>
        <source>Zoom out (-)</source>
        <translation>缩小（-）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Show the whole session (0)</source>
        <translation>显示整个会话（0）</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Read the sessions again</source>
        <translation>重新读取会话</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Write the session as JSON Lines, or as an HTML report for a reviewer</source>
        <translation>将会话写为 JSON Lines，或写为供审阅者查看的 HTML 报告</translation>
    </message>
    <message>
        <source>JSON Lines…</source>
        <translation>JSON Lines…</translation>
    </message>
    <message>
        <source>HTML report…</source>
        <translation>HTML 报告…</translation>
    </message>
    <message>
        <source>Cannot read the agent sessions: %1</source>
        <translation>无法读取智能体会话：%1</translation>
    </message>
    <message>
        <source>Select a step to see its details.</source>
        <translation>选择一个步骤以查看其详细信息。</translation>
    </message>
    <message>
        <source>Cannot read the steps of session %1: %2</source>
        <translation>无法读取会话 %1 的步骤：%2</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>Search failed</source>
        <translation>搜索失败</translation>
    </message>
    <message>
        <source>Cannot search: %1</source>
        <translation>无法搜索：%1</translation>
    </message>
    <message>
        <source>No match</source>
        <translation>无匹配项</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 个匹配项</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配项</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <source>Export the session as an HTML report</source>
        <translation>将会话导出为 HTML 报告</translation>
    </message>
    <message>
        <source>Export the session as JSON Lines</source>
        <translation>将会话导出为 JSON Lines</translation>
    </message>
    <message>
        <source>HTML report (*.html)</source>
        <translation>HTML 报告 (*.html)</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Exporting session %1…</source>
        <translation>正在导出会话 %1…</translation>
    </message>
    <message>
        <source>Session exported to %1</source>
        <translation>会话已导出到 %1</translation>
    </message>
    <message>
        <source>Fork a sandbox from before step %1…</source>
        <translation>从步骤 %1 之前分叉沙箱…</translation>
    </message>
    <message>
        <source>Rewind the sandbox to before step %1…</source>
        <translation>将沙箱回退到步骤 %1 之前…</translation>
    </message>
    <message>
        <source>Not while the session runs: the agent is working in that sandbox</source>
        <translation>会话运行期间不可操作：智能体正在该沙箱中工作</translation>
    </message>
    <message>
        <source>Fork a sandbox</source>
        <translation>分叉沙箱</translation>
    </message>
    <message>
        <source>A new sandbox whose workspace is the session&apos;s before step %1. Its name:</source>
        <translation>新沙箱的工作区为该会话在步骤 %1 之前的状态。其名称：</translation>
    </message>
    <message>
        <source>Rewind the sandbox</source>
        <translation>回退沙箱</translation>
    </message>
    <message>
        <source>Make the sandbox %1 as it was before step %2? Unsaved changes are checkpointed first: nothing is lost.</source>
        <translation>将沙箱 %1 恢复为步骤 %2 之前的状态？未保存的更改会先创建检查点：不会丢失任何内容。</translation>
    </message>
    <message>
        <source>Forking %1 from before step %2…</source>
        <translation>正在从步骤 %2 之前分叉 %1…</translation>
    </message>
    <message>
        <source>Rewinding to before step %1…</source>
        <translation>正在回退到步骤 %1 之前…</translation>
    </message>
    <message>
        <source>Cannot fork: %1</source>
        <translation>无法分叉：%1</translation>
    </message>
    <message>
        <source>Cannot rewind: %1</source>
        <translation>无法回退：%1</translation>
    </message>
    <message>
        <source>Sandbox %1 forked from before step %2 (checkpoint %3)</source>
        <translation>沙箱 %1 已从步骤 %2 之前分叉（检查点 %3）</translation>
    </message>
    <message>
        <source>Sandbox %1 rewound to before step %2 (checkpoint %3)</source>
        <translation>沙箱 %1 已回退到步骤 %2 之前（检查点 %3）</translation>
    </message>
    <message>
        <source>Select a session: each agent run or wrapped MCP server the store recorded.</source>
        <translation>选择一个会话：存储记录的每次智能体运行或每个被包装的 MCP 服务器。</translation>
    </message>
    <message>
        <source>The store is not open.</source>
        <translation>存储未打开。</translation>
    </message>
    <message>
        <source>%1 v%2</source>
        <translation>%1 v%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; session &lt;code&gt;%2&lt;/code&gt; · &lt;b&gt;%3&lt;/b&gt; · %4 steps · cost %5 · sandbox %6 · policy %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 会话 &lt;code&gt;%2&lt;/code&gt; · &lt;b&gt;%3&lt;/b&gt; · %4 个步骤 · 开销 %5 · 沙箱 %6 · 策略 %7</translation>
    </message>
    <message>
        <source>Replay…</source>
        <translation>重放…</translation>
    </message>
    <message>
        <source>Replay the open session under another policy and compare it with the original</source>
        <translation>在另一策略下重放打开的会话，并与原会话比较</translation>
    </message>
    <message>
        <source>Replay under policy…</source>
        <translation>在策略下重放…</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>比较对象…</translation>
    </message>
    <message>
        <source>Session %1 on the left; on the right:</source>
        <translation>左侧为会话 %1；右侧为：</translation>
    </message>
    <message>
        <source>Replay recorded as session %1</source>
        <translation>重放已记录为会话 %1</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditEntryPane</name>
    <message>
        <source>Open run</source>
        <translation>打开运行</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>打开检查点</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Open sandbox</source>
        <translation>打开沙箱</translation>
    </message>
    <message>
        <source>No entry selected</source>
        <translation>未选择条目</translation>
    </message>
    <message>
        <source>Select an entry to see all its fields, its details and its hashes.</source>
        <translation>选择一个条目以查看其所有字段、详细信息和哈希。</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Show %1 in the window</source>
        <translation>在窗口中显示 %1</translation>
    </message>
    <message>
        <source>This entry breaks the chain:</source>
        <translation>此条目破坏了链：</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>沙箱</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Recorded subject</source>
        <translation>记录的对象</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Hash</source>
        <translation>哈希</translation>
    </message>
    <message>
        <source>Previous hash</source>
        <translation>上一个哈希</translation>
    </message>
    <message>
        <source>MAC</source>
        <translation>MAC</translation>
    </message>
    <message>
        <source>none (written before the store had a key)</source>
        <translation>无（写入时存储尚无密钥）</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditLogModel</name>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>The chain breaks at this entry.</source>
        <translation>链在此条目处断开。</translation>
    </message>
    <message>
        <source>entry %1
hash %2</source>
        <translation>条目 %1
哈希 %2</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditView</name>
    <message>
        <source>&amp;Verify chain</source>
        <translation>校验链(&amp;V)</translation>
    </message>
    <message>
        <source>Show one action, or one family of actions (checkpoint.*)</source>
        <translation>显示一种操作，或一类操作（checkpoint.*）</translation>
    </message>
    <message>
        <source>Show one actor only</source>
        <translation>仅显示一个操作者</translation>
    </message>
    <message>
        <source>All actions</source>
        <translation>全部操作</translation>
    </message>
    <message>
        <source>All actors</source>
        <translation>全部操作者</translation>
    </message>
    <message>
        <source>Filter: subject, details…</source>
        <translation>筛选：对象、详细信息…</translation>
    </message>
    <message>
        <source>Show entries holding this text in their actor, action, subject or details</source>
        <translation>显示操作者、操作、对象或详细信息中包含此文本的条目</translation>
    </message>
    <message>
        <source>Read the log again</source>
        <translation>重新读取日志</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Write the entries the filters match to a file</source>
        <translation>将筛选条件匹配的条目写入文件</translation>
    </message>
    <message>
        <source>As &amp;CSV…</source>
        <translation>导出为 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>As &amp;JSON Lines…</source>
        <translation>导出为 JSON Lines(&amp;J)…</translation>
    </message>
    <message>
        <source>Stop exporting</source>
        <translation>停止导出</translation>
    </message>
    <message>
        <source>Walk the whole hash chain and name the first entry that was altered or removed</source>
        <translation>遍历整条哈希链，并指出第一个被篡改或删除的条目</translation>
    </message>
    <message>
        <source>Stop verifying</source>
        <translation>停止校验</translation>
    </message>
    <message>
        <source>%L1 of %L2</source>
        <translation>%L1 / %L2</translation>
    </message>
    <message>
        <source>Not verified yet. Verify walks the whole hash chain and names the first entry that was altered or removed.</source>
        <translation>尚未校验。校验会遍历整条哈希链，并指出第一个被篡改或删除的条目。</translation>
    </message>
    <message>
        <source>The store is unavailable: there is no audit log to show.</source>
        <translation>存储不可用：没有可显示的审计日志。</translation>
    </message>
    <message>
        <source>New entries since the last verification. Verify again to cover them.</source>
        <translation>自上次校验以来有新条目。请再次校验以涵盖它们。</translation>
    </message>
    <message>
        <source>Cannot read the log</source>
        <translation>无法读取日志</translation>
    </message>
    <message>
        <source>Scroll down to read older entries</source>
        <translation>向下滚动以阅读较早的条目</translation>
    </message>
    <message>
        <source>Latest entries: %L1</source>
        <translation>最新条目：%L1</translation>
    </message>
    <message>
        <source>Entries: %L1</source>
        <translation>条目：%L1</translation>
    </message>
    <message>
        <source>exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <source>Export the audit log</source>
        <translation>导出审计日志</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>JSON Lines files (*.jsonl)</source>
        <translation>JSON Lines 文件 (*.jsonl)</translation>
    </message>
    <message>
        <source>Export cancelled: no file was written</source>
        <translation>导出已取消：未写入任何文件</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Exported %L1 entries</source>
        <translation>已导出 %L1 个条目</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Verifying the hash chain…</source>
        <translation>正在校验哈希链…</translation>
    </message>
    <message>
        <source>Cannot verify: %1</source>
        <translation>无法校验：%1</translation>
    </message>
    <message>
        <source>Cancelled after %L1 entries: nothing is known about the rest.</source>
        <translation>在 %L1 个条目后取消：其余条目的情况未知。</translation>
    </message>
    <message>
        <source>✔ Chain intact: the log is empty.</source>
        <translation>✔ 链完整：日志为空。</translation>
    </message>
    <message>
        <source>✔ Chain intact: %L1 entries, head %2</source>
        <translation>✔ 链完整：%L1 个条目，头部 %2</translation>
    </message>
    <message>
        <source>Head: entry %1
%2</source>
        <translation>头部：条目 %1
%2</translation>
    </message>
    <message>
        <source>Not verified (%1): %2</source>
        <translation>未校验（%1）：%2</translation>
    </message>
    <message>
        <source>✘ Chain broken at entry %1 (%2): %3</source>
        <translation>✘ 链在条目 %1 处断开（%2）：%3</translation>
    </message>
    <message>
        <source>✘ Chain broken (%1): %2</source>
        <translation>✘ 链已断开（%1）：%2</translation>
    </message>
    <message>
        <source>The entry is not among the rows shown (removed, or hidden by a filter).</source>
        <translation>该条目不在显示的行中（已删除，或被筛选条件隐藏）。</translation>
    </message>
    <message>
        <source>Refresh the audit log</source>
        <translation>刷新审计日志</translation>
    </message>
</context>
<context>
    <name>sb::ui::Autosave</name>
    <message>
        <source>Cannot make the folder of %1</source>
        <translation>无法创建 %1 所在的文件夹</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>sb::ui::ChangedDecisionsModel</name>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Current
decision</source>
        <translation>当前
决策</translation>
    </message>
    <message>
        <source>Proposed
decision</source>
        <translation>拟议
决策</translation>
    </message>
    <message>
        <source>Current
score</source>
        <translation>当前
分数</translation>
    </message>
    <message>
        <source>Proposed
score</source>
        <translation>拟议
分数</translation>
    </message>
    <message>
        <source>Current
rule</source>
        <translation>当前
规则</translation>
    </message>
    <message>
        <source>Proposed
rule</source>
        <translation>拟议
规则</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointBrowser</name>
    <message>
        <source>Creating the sandbox…</source>
        <translation>正在创建沙箱…</translation>
    </message>
    <message>
        <source>Destroying the sandbox…</source>
        <translation>正在销毁沙箱…</translation>
    </message>
    <message>
        <source>Creating a checkpoint…</source>
        <translation>正在创建检查点…</translation>
    </message>
    <message>
        <source>Restoring…</source>
        <translation>正在恢复…</translation>
    </message>
    <message>
        <source>Forking…</source>
        <translation>正在分叉…</translation>
    </message>
    <message>
        <source>Sweeping expired and idle sandboxes…</source>
        <translation>正在清理过期和空闲的沙箱…</translation>
    </message>
    <message>
        <source>Making the demo sandboxes…</source>
        <translation>正在创建演示沙箱…</translation>
    </message>
    <message>
        <source>Labelling the checkpoint…</source>
        <translation>正在为检查点设置标签…</translation>
    </message>
    <message>
        <source>Reviving the archived sandbox…</source>
        <translation>正在恢复已归档的沙箱…</translation>
    </message>
    <message>
        <source>Applying the sandbox&apos;s settings…</source>
        <translation>正在应用沙箱设置…</translation>
    </message>
    <message>
        <source>The store is not open.</source>
        <translation>存储未打开。</translation>
    </message>
    <message>
        <source>Cancel the running checkpoint operation or diff</source>
        <translation>取消正在进行的检查点操作或差异比较</translation>
    </message>
    <message>
        <source>Select a checkpoint to compare it with the live workspace; Ctrl-click a second one to compare the two</source>
        <translation>选择一个检查点与实时工作区比较；按住 Ctrl 单击第二个检查点可比较这两个</translation>
    </message>
    <message>
        <source>New sandbox…</source>
        <translation>新建沙箱…</translation>
    </message>
    <message>
        <source>Make a sandbox from main, a sandbox, the selected checkpoint or an imported folder</source>
        <translation>从 main、某个沙箱、所选检查点或导入的文件夹创建沙箱</translation>
    </message>
    <message>
        <source>Destroy</source>
        <translation>销毁</translation>
    </message>
    <message>
        <source>Delete the selected sandbox, its workspace and its checkpoints</source>
        <translation>删除所选沙箱及其工作区和检查点</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Open the sandbox&apos;s workspace folder in the file manager</source>
        <translation>在文件管理器中打开沙箱的工作区文件夹</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>设置…</translation>
    </message>
    <message>
        <source>Change the selected sandbox&apos;s size quota and idle timeout</source>
        <translation>更改所选沙箱的容量配额和空闲超时</translation>
    </message>
    <message>
        <source>Checkpoint…</source>
        <translation>检查点…</translation>
    </message>
    <message>
        <source>Snapshot the sandbox&apos;s workspace as it is now</source>
        <translation>为沙箱工作区的当前状态创建快照</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>恢复…</translation>
    </message>
    <message>
        <source>Make the workspace equal to the selected checkpoint (unsaved changes are checkpointed first)</source>
        <translation>使工作区与所选检查点一致（未保存的更改会先创建检查点）</translation>
    </message>
    <message>
        <source>Fork…</source>
        <translation>分叉…</translation>
    </message>
    <message>
        <source>A new sandbox whose workspace is the selected checkpoint</source>
        <translation>工作区为所选检查点的新沙箱</translation>
    </message>
    <message>
        <source>Label…</source>
        <translation>标签…</translation>
    </message>
    <message>
        <source>Give the selected checkpoint a label, or clear it (its id stays)</source>
        <translation>为所选检查点设置标签，或清除标签（其 ID 保持不变）</translation>
    </message>
    <message>
        <source>Sweep now</source>
        <translation>立即清理</translation>
    </message>
    <message>
        <source>Destroy every expired sandbox, archive every idle one (its work kept), and free what nothing uses</source>
        <translation>销毁所有过期沙箱，归档所有空闲沙箱（保留其工作），并释放未被使用的空间</translation>
    </message>
    <message>
        <source>Promote…</source>
        <translation>发布…</translation>
    </message>
    <message>
        <source>Review what the selected sandbox changed and promote it into main (or another sandbox)</source>
        <translation>审阅所选沙箱的更改，并将其发布到 main（或另一个沙箱）</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Read the sandboxes and checkpoints again and redo the diff</source>
        <translation>重新读取沙箱和检查点，并重新进行差异比较</translation>
    </message>
    <message>
        <source>The store is unavailable: there are no sandboxes to show.</source>
        <translation>存储不可用：没有可显示的沙箱。</translation>
    </message>
    <message>
        <source>Cannot read the sandboxes: %1</source>
        <translation>无法读取沙箱：%1</translation>
    </message>
    <message>
        <source>Cannot read the checkpoints of %1: %2</source>
        <translation>无法读取 %1 的检查点：%2</translation>
    </message>
    <message>
        <source>Only main so far. New sandbox… makes a world to experiment in; the Demo (Ctrl+Shift+D) also adds two demo sandboxes with a few checkpoints to explore.</source>
        <translation>目前只有 main。“新建沙箱…”可创建一个用于试验的环境；演示（Ctrl+Shift+D）还会添加两个带有若干检查点的演示沙箱供探索。</translation>
    </message>
    <message>
        <source>Select a checkpoint to see how the live workspace differs from it; Ctrl-click a second checkpoint to compare the two.</source>
        <translation>选择一个检查点以查看实时工作区与它的差异；按住 Ctrl 单击第二个检查点可比较这两个。</translation>
    </message>
    <message>
        <source>Select one checkpoint (compared with the live workspace) or two (compared with each other).</source>
        <translation>选择一个检查点（与实时工作区比较）或两个检查点（相互比较）。</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>comparing</source>
        <translation>正在比较</translation>
    </message>
    <message>
        <source>Diff cancelled.</source>
        <translation>差异比较已取消。</translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation>无法比较：%1</translation>
    </message>
    <message>
        <source>live workspace</source>
        <translation>实时工作区</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: %n changed path(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;：%n 个已更改的路径</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 added</source>
        <translation>新增 %1</translation>
    </message>
    <message>
        <source>%1 modified</source>
        <translation>修改 %1</translation>
    </message>
    <message>
        <source>%1 removed</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Not compared (skipped by the walk): %1</source>
        <translation>未比较（遍历时跳过）：%1</translation>
    </message>
    <message>
        <source>No differences: the live workspace is exactly this checkpoint.</source>
        <translation>无差异：实时工作区与此检查点完全相同。</translation>
    </message>
    <message>
        <source>No differences: both checkpoints hold the same files.</source>
        <translation>无差异：两个检查点包含相同的文件。</translation>
    </message>
    <message>
        <source>Select a changed path to see its diff.</source>
        <translation>选择一个已更改的路径以查看其差异。</translation>
    </message>
    <message>
        <source>Binary file differs</source>
        <translation>二进制文件不同</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Binary file added (%1)</source>
        <translation>已添加二进制文件（%1）</translation>
    </message>
    <message>
        <source>Binary file removed (%1)</source>
        <translation>已删除二进制文件（%1）</translation>
    </message>
    <message>
        <source>Too large for a line diff (%1)</source>
        <translation>过大，无法逐行比较（%1）</translation>
    </message>
    <message>
        <source>Folder permissions changed</source>
        <translation>文件夹权限已更改</translation>
    </message>
    <message>
        <source>Empty folder</source>
        <translation>空文件夹</translation>
    </message>
    <message>
        <source>Symbolic link → %1</source>
        <translation>符号链接 → %1</translation>
    </message>
    <message>
        <source>Permissions changed: %1 → %2</source>
        <translation>权限已更改：%1 → %2</translation>
    </message>
    <message>
        <source>No text differences (an empty file).</source>
        <translation>无文本差异（空文件）。</translation>
    </message>
    <message>
        <source>Comparing: %1</source>
        <translation>正在比较：%1</translation>
    </message>
    <message>
        <source>Cancelled: nothing was changed.</source>
        <translation>已取消：未做任何更改。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>This could not be done:</source>
        <translation>无法完成此操作：</translation>
    </message>
    <message numerus="yes">
        <source>(%n path(s) skipped; first: %1)</source>
        <translation>
            <numerusform>（跳过了 %n 个路径；第一个：%1）</numerusform>
        </translation>
    </message>
    <message>
        <source>At start: %1</source>
        <translation>开始时：%1</translation>
    </message>
    <message>
        <source>Cannot open %1 in a file manager</source>
        <translation>无法在文件管理器中打开 %1</translation>
    </message>
    <message>
        <source>Another checkpoint operation is running: try again when it ends.</source>
        <translation>另一个检查点操作正在进行：请在其结束后重试。</translation>
    </message>
    <message>
        <source>The store is unavailable.</source>
        <translation>存储不可用。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Destroy sandbox</source>
        <translation>销毁沙箱</translation>
    </message>
    <message>
        <source>Destroy the sandbox &lt;b&gt;%1&lt;/b&gt;?</source>
        <translation>销毁沙箱 &lt;b&gt;%1&lt;/b&gt;？</translation>
    </message>
    <message numerus="yes">
        <source>Its workspace folder and its %n checkpoint(s) are deleted. This cannot be undone.</source>
        <translation>
            <numerusform>其工作区文件夹及其 %n 个检查点将被删除。此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <source>Restore checkpoint</source>
        <translation>恢复检查点</translation>
    </message>
    <message>
        <source>Restore the workspace of &lt;b&gt;%1&lt;/b&gt; to checkpoint %2?</source>
        <translation>将 &lt;b&gt;%1&lt;/b&gt; 的工作区恢复到检查点 %2？</translation>
    </message>
    <message>
        <source>Unsaved changes in the workspace are checkpointed first, and the restore is recorded as a new checkpoint: nothing is lost.</source>
        <translation>工作区中未保存的更改会先创建检查点，且恢复操作会记录为新的检查点：不会丢失任何内容。</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Promoted %1 into %2: checkpoint %3</source>
        <translation>已将 %1 发布到 %2：检查点 %3</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointDialog</name>
    <message>
        <source>Create checkpoint</source>
        <translation>创建检查点</translation>
    </message>
    <message>
        <source>e.g. before the velocity rule</source>
        <translation>例如：在添加速度规则之前</translation>
    </message>
    <message>
        <source>why (optional)</source>
        <translation>原因（可选）</translation>
    </message>
    <message>
        <source>Snapshot the workspace of &lt;b&gt;%1&lt;/b&gt; as it is now.</source>
        <translation>为 &lt;b&gt;%1&lt;/b&gt; 的工作区的当前状态创建快照。</translation>
    </message>
    <message>
        <source>&amp;Label:</source>
        <translation>标签(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Message:</source>
        <translation>消息(&amp;M)：</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointJobRunner</name>
    <message>
        <source>Sandbox %1 created from %2: %3 files, %4</source>
        <translation>已从 %2 创建沙箱 %1：%3 个文件，%4</translation>
    </message>
    <message>
        <source>Sandbox %1 destroyed: %2 checkpoints removed, %3 freed</source>
        <translation>沙箱 %1 已销毁：删除了 %2 个检查点，释放了 %3</translation>
    </message>
    <message>
        <source>Checkpoint %1 of %2: %3 added, %4 modified, %5 removed</source>
        <translation>%2 的检查点 %1：新增 %3，修改 %4，删除 %5</translation>
    </message>
    <message>
        <source> (unsaved changes saved first as %1)</source>
        <translation>（未保存的更改已先保存为 %1）</translation>
    </message>
    <message>
        <source>%1 restored to %2: %3 added, %4 modified, %5 removed%6</source>
        <translation>%1 已恢复到 %2：新增 %3，修改 %4，删除 %5%6</translation>
    </message>
    <message>
        <source>Sandbox %1 forked from checkpoint %2</source>
        <translation>沙箱 %1 已从检查点 %2 分叉</translation>
    </message>
    <message>
        <source>Sweep: no expired sandboxes</source>
        <translation>清理：没有过期的沙箱</translation>
    </message>
    <message>
        <source>Sweep destroyed the expired sandboxes %1 (%2 checkpoints, %3 freed)</source>
        <translation>清理销毁了过期沙箱 %1（%2 个检查点，释放了 %3）</translation>
    </message>
    <message>
        <source>Sweep archived the idle sandboxes %1 (their work is checkpointed; they come back when used)</source>
        <translation>清理归档了空闲沙箱 %1（其工作已创建检查点；使用时会恢复）</translation>
    </message>
    <message>
        <source>Demo sandboxes %1 ready with %2 checkpoints</source>
        <translation>演示沙箱 %1 已就绪，共 %2 个检查点</translation>
    </message>
    <message>
        <source>Checkpoint %1: label cleared</source>
        <translation>检查点 %1：标签已清除</translation>
    </message>
    <message>
        <source>Checkpoint %1 labelled “%2”</source>
        <translation>检查点 %1 的标签已设为“%2”</translation>
    </message>
    <message>
        <source>Sandbox %1: settings applied</source>
        <translation>沙箱 %1：设置已应用</translation>
    </message>
    <message>
        <source>Sandbox %1 revived: its workspace is back from checkpoint %2</source>
        <translation>沙箱 %1 已恢复：其工作区已从检查点 %2 还原</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointListModel</name>
    <message>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <source>Checkpoint %1</source>
        <translation>检查点 %1</translation>
    </message>
    <message>
        <source>The sandbox&apos;s workspace stands on this checkpoint (its head).</source>
        <translation>沙箱的工作区位于此检查点上（其头部）。</translation>
    </message>
    <message>
        <source>Label: %1</source>
        <translation>标签：%1</translation>
    </message>
    <message>
        <source>Message: %1</source>
        <translation>消息：%1</translation>
    </message>
    <message>
        <source>Parent: %1%2</source>
        <translation>父检查点：%1%2</translation>
    </message>
    <message>
        <source> (in another sandbox)</source>
        <translation>（在另一个沙箱中）</translation>
    </message>
    <message>
        <source>Made from: %1</source>
        <translation>创建自：%1</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Label / message</source>
        <translation>标签 / 消息</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
</context>
<context>
    <name>sb::ui::ClusterJobsModel</name>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Tasks done</source>
        <translation>已完成任务</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>记录数</translation>
    </message>
    <message>
        <source>Slurm jobs</source>
        <translation>Slurm 作业</translation>
    </message>
    <message>
        <source>User@host</source>
        <translation>用户@主机</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>%1
Folder: %2</source>
        <translation>%1
文件夹：%2</translation>
    </message>
    <message>
        <source>Process %1 on %2; its status was last written %3</source>
        <translation>%2 上的进程 %1；其状态最后一次写入于%3</translation>
    </message>
    <message>
        <source>Its command ended without a word (killed, or its machine went down), so no one follows its Slurm jobs: Remove cancels whatever Slurm still has of them, then deletes the folder.</source>
        <translation>它的命令已悄然结束（被终止，或所在机器已宕机），因此已无人跟进它的 Slurm 作业：“删除”会先取消 Slurm 中仍有的这些作业，再删除该文件夹。</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>removing…</source>
        <translation>正在删除…</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已消失</translation>
    </message>
    <message>
        <source>unreadable: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>submitting</source>
        <translation>正在提交</translation>
    </message>
    <message>
        <source>splitting</source>
        <translation>正在拆分</translation>
    </message>
    <message>
        <source>scanning</source>
        <translation>正在扫描</translation>
    </message>
    <message>
        <source>evaluating</source>
        <translation>正在评估</translation>
    </message>
    <message>
        <source>merging</source>
        <translation>正在合并</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>rules</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>批处理</translation>
    </message>
    <message>
        <source>agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 of %2 tasks done, %3 queued, %4 running</source>
        <translation>已完成 %1/%2 个任务，%3 个排队中，%4 个运行中</translation>
    </message>
    <message>
        <source>, %1 retried</source>
        <translation>，%1 个已重试</translation>
    </message>
    <message>
        <source>%1 s ago</source>
        <translation>%1 秒前</translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation>%1 分钟前</translation>
    </message>
    <message>
        <source>%1 h %2 min ago</source>
        <translation>%1 小时 %2 分钟前</translation>
    </message>
</context>
<context>
    <name>sb::ui::ClusterJobsPanel</name>
    <message>
        <source>Cluster jobs</source>
        <translation>集群作业</translation>
    </message>
    <message>
        <source>Reading the cluster configuration…</source>
        <translation>正在读取集群配置…</translation>
    </message>
    <message>
        <source>Cannot cancel the cluster job: %1</source>
        <translation>无法取消集群作业：%1</translation>
    </message>
    <message>
        <source>Cannot remove the cluster job&apos;s folder: %1</source>
        <translation>无法删除集群作业的文件夹：%1</translation>
    </message>
    <message>
        <source>No Slurm cluster is configured. The commands sent with &lt;code&gt;--backend slurm&lt;/code&gt; show here once %1 has a &lt;code&gt;slurm&lt;/code&gt; section naming their spool: see &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;.</source>
        <translation>尚未配置 Slurm 集群。在 %1 中添加指明作业目录的 &lt;code&gt;slurm&lt;/code&gt; 部分后，用 &lt;code&gt;--backend slurm&lt;/code&gt; 提交的命令会显示在这里：参见 &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;。</translation>
    </message>
    <message>
        <source>The cluster configuration cannot be read: %1</source>
        <translation>无法读取集群配置：%1</translation>
    </message>
    <message>
        <source>The cluster spool cannot be listed: %1</source>
        <translation>无法列出集群作业目录：%1</translation>
    </message>
    <message>
        <source>No jobs in the cluster spool %1. A command sent with &lt;code&gt;--backend slurm&lt;/code&gt; shows here while it runs, and stays if it fails.</source>
        <translation>集群作业目录 %1 中没有作业。用 &lt;code&gt;--backend slurm&lt;/code&gt; 提交的命令运行时会显示在这里，失败后也会保留。</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel this command&apos;s Slurm jobs</source>
        <translation>取消此命令的 Slurm 作业</translation>
    </message>
    <message>
        <source>Cancel job %1</source>
        <translation>取消作业 %1</translation>
    </message>
    <message>
        <source>Remove job %1</source>
        <translation>删除作业 %1</translation>
    </message>
    <message>
        <source>Open the folder of job %1</source>
        <translation>打开作业 %1 的文件夹</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove this job&apos;s folder from the spool, with its logs</source>
        <translation>从作业目录中删除此作业的文件夹及其日志</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Open this job&apos;s folder, with its logs, in the file manager</source>
        <translation>在文件管理器中打开此作业的文件夹及其日志</translation>
    </message>
    <message>
        <source>Asked the command to cancel its Slurm jobs; it does so at its next look at the queue.</source>
        <translation>已请求该命令取消其 Slurm 作业；它会在下次查看队列时取消。</translation>
    </message>
    <message>
        <source>Cancel cluster job</source>
        <translation>取消集群作业</translation>
    </message>
    <message>
        <source>Cancel &lt;b&gt;%1&lt;/b&gt;?</source>
        <translation>取消 &lt;b&gt;%1&lt;/b&gt;？</translation>
    </message>
    <message>
        <source>Its Slurm jobs are cancelled (scancel) and the command ends without a result: what its tasks have done is not recorded. This cannot be undone.</source>
        <translation>其 Slurm 作业将被取消（scancel），命令结束且没有结果：其任务已完成的工作不会被记录。此操作无法撤销。</translation>
    </message>
    <message>
        <source>Cancel jobs</source>
        <translation>取消作业</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>Remove cluster job</source>
        <translation>删除集群作业</translation>
    </message>
    <message>
        <source>Remove the folder of &lt;b&gt;%1&lt;/b&gt; from the spool?</source>
        <translation>从作业目录中删除 &lt;b&gt;%1&lt;/b&gt; 的文件夹？</translation>
    </message>
    <message>
        <source>%1 is deleted with the logs in it. This cannot be undone.</source>
        <translation>%1 及其中的日志将被删除。此操作无法撤销。</translation>
    </message>
    <message>
        <source>Cannot open %1 in a file manager</source>
        <translation>无法在文件管理器中打开 %1</translation>
    </message>
</context>
<context>
    <name>sb::ui::DemoTour</name>
    <message>
        <source>Play demo</source>
        <translation>播放演示</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>End the walk (Esc)</source>
        <translation>结束导览（Esc）</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>The demo store is ready</source>
        <translation>演示存储已就绪</translation>
    </message>
    <message>
        <source>This window works on a demo store of its own, filled with snippets of every outcome, the rules demo, a recorded agent session, sandboxes with checkpoints and a change ready to promote. Your own store is untouched. Play demo walks through it in about a minute.</source>
        <translation>此窗口使用一个独立的演示存储，其中包含涵盖每种结果的代码片段、规则演示、一个已录制的智能体会话、带检查点的沙箱，以及一项待发布的更改。您自己的存储不受影响。“播放演示”会在大约一分钟内带您浏览全部内容。</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Snippets and their outcomes</source>
        <translation>代码片段及其结果</translation>
    </message>
    <message>
        <source>A blocked run, explained</source>
        <translation>一次被阻止的运行及其说明</translation>
    </message>
    <message>
        <source>Rules: an A/B comparison</source>
        <translation>规则：A/B 对比</translation>
    </message>
    <message>
        <source>A recorded agent session</source>
        <translation>一个已录制的智能体会话</translation>
    </message>
    <message>
        <source>Sandboxes and their checkpoints</source>
        <translation>沙箱及其检查点</translation>
    </message>
    <message>
        <source>Reviewing a promotion</source>
        <translation>审查一次发布</translation>
    </message>
    <message>
        <source>The dashboard</source>
        <translation>仪表板</translation>
    </message>
    <message>
        <source>Every snippet runs in an operating-system sandbox and ends in one outcome: ok, error, blocked, timeout, memory limit or crashed. The history lists the demo&apos;s snippets, one of each.</source>
        <translation>每个代码片段都在操作系统沙箱中运行，并以一种结果结束：成功、错误、被阻止、超时、内存超限或崩溃。历史中列出了演示的代码片段，每种一个。</translation>
    </message>
    <message>
        <source>This snippet tried something its policy refuses. The output names what the sandbox blocked and the isolation the run had; the run is recorded with it, as every run is.</source>
        <translation>这个代码片段尝试了其策略所禁止的操作。输出会指出沙箱阻止了什么以及该运行的隔离情况；该运行连同这些信息一起被记录，每次运行都是如此。</translation>
    </message>
    <message>
        <source>The rules workspace runs rule sets on a dataset. The current rules against two variants on 5,000 demo transactions: the charts show the decisions each variant changes.</source>
        <translation>规则工作区在数据集上运行规则集。当前规则与两个变体在 5,000 笔演示交易上的对比：图表显示每个变体改变了哪些决策。</translation>
    </message>
    <message>
        <source>A scripted agent upgraded a dependency in a sandbox of its own. Every tool call is a step on the timeline, with its arguments, its result and the policy&apos;s decision.</source>
        <translation>一个脚本化的智能体在自己的沙箱中升级了一个依赖。每次工具调用都是时间线上的一个步骤，包含其参数、结果以及策略的决定。</translation>
    </message>
    <message>
        <source>A sandbox keeps checkpoints of its workspace, like commits: the graph shows them, and demo-rules-strict is a fork made from one. Select one, or two, to see what changed.</source>
        <translation>沙箱会像提交一样保存其工作区的检查点：图中显示了它们，demo-rules-strict 是从其中一个派生出的分支。选择一个或两个即可查看更改内容。</translation>
    </message>
    <message>
        <source>The agent&apos;s change waits to be promoted into the repository it came from. The review shows the changed files, the risk and the checks first; the walk closes it without promoting.</source>
        <translation>智能体的更改正等待发布到其来源的仓库中。审查首先显示已更改的文件、风险和检查；导览会在不发布的情况下关闭它。</translation>
    </message>
    <message>
        <source>Every run is measured: outcomes, durations, blocked events, agent steps and promotions over time. Click a bar to narrow the history to its runs.</source>
        <translation>每次运行都会被度量：结果、耗时、被阻止的事件、智能体步骤和发布随时间的变化。点击一个条形即可将历史筛选为对应的运行。</translation>
    </message>
    <message>
        <source>Finish</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>第 %1 步，共 %2 步：%3</translation>
    </message>
</context>
<context>
    <name>sb::ui::DiffFileModel</name>
    <message>
        <source>binary</source>
        <translation>二进制</translation>
    </message>
    <message>
        <source>too large</source>
        <translation>过大</translation>
    </message>
    <message>
        <source>Added: %1</source>
        <translation>新增：%1</translation>
    </message>
    <message>
        <source>Removed: %1</source>
        <translation>删除：%1</translation>
    </message>
    <message>
        <source>Modified: %1</source>
        <translation>修改：%1</translation>
    </message>
    <message>
        <source>Changed path</source>
        <translation>已更改的路径</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>行</translation>
    </message>
</context>
<context>
    <name>sb::ui::DiffPane</name>
    <message>
        <source>Unified</source>
        <translation>统一视图</translation>
    </message>
    <message>
        <source>Show the diff as one column: removed lines above the lines that replace them</source>
        <translation>以单列显示差异：删除的行位于替换它们的行之上</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>并排视图</translation>
    </message>
    <message>
        <source>Show the old version on the left and the new one on the right</source>
        <translation>左侧显示旧版本，右侧显示新版本</translation>
    </message>
    <message>
        <source>Diff:</source>
        <translation>差异：</translation>
    </message>
</context>
<context>
    <name>sb::ui::DocsBrowser</name>
    <message>
        <source>Sandbench documentation</source>
        <translation>Sandbench 文档</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>后退</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Document:</source>
        <translation>文档：</translation>
    </message>
    <message>
        <source>%1 is not part of the documentation built into Sandbench; it is in the source tree.</source>
        <translation>%1 不属于 Sandbench 内置的文档；它位于源代码树中。</translation>
    </message>
</context>
<context>
    <name>sb::ui::DoctorDialog</name>
    <message>
        <source>Isolation on this machine</source>
        <translation>本机的隔离能力</translation>
    </message>
    <message>
        <source>%1: yes</source>
        <translation>%1：是</translation>
    </message>
    <message>
        <source>%1: no</source>
        <translation>%1：否</translation>
    </message>
    <message>
        <source>Isolation levels a run can have here — %1</source>
        <translation>此处运行可获得的隔离级别 — %1</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Here</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>What was found</source>
        <translation>检测结果</translation>
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
        <source>The same report on the command line: &lt;code&gt;sandbench doctor&lt;/code&gt; (or &lt;code&gt;--json&lt;/code&gt;).</source>
        <translation>命令行中的相同报告：&lt;code&gt;sandbench doctor&lt;/code&gt;（或 &lt;code&gt;--json&lt;/code&gt;）。</translation>
    </message>
</context>
<context>
    <name>sb::ui::EditArgumentsDialog</name>
    <message>
        <source>Edit the arguments of step %1</source>
        <translation>编辑步骤 %1 的参数</translation>
    </message>
    <message>
        <source>Step %1 calls &lt;b&gt;%2&lt;/b&gt;. It goes on with these arguments instead of the agent&apos;s, and is recorded as edited.</source>
        <translation>步骤 %1 调用 &lt;b&gt;%2&lt;/b&gt;。它将使用这些参数代替智能体给出的参数继续执行，并记录为已编辑。</translation>
    </message>
    <message>
        <source>Go on with these</source>
        <translation>使用这些参数继续</translation>
    </message>
    <message>
        <source>The arguments must be a JSON object ({ ... }); this is a JSON %1.</source>
        <translation>参数必须是 JSON 对象（{ ... }）；此处是 JSON %1。</translation>
    </message>
    <message>
        <source>Not JSON: %1</source>
        <translation>不是 JSON：%1</translation>
    </message>
</context>
<context>
    <name>sb::ui::FindBar</name>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Text to find</source>
        <translation>要查找的文本</translation>
    </message>
    <message>
        <source>▲</source>
        <translation>▲</translation>
    </message>
    <message>
        <source>Find the previous match (Shift+F3, Shift+Enter)</source>
        <translation>查找上一个匹配项（Shift+F3、Shift+Enter）</translation>
    </message>
    <message>
        <source>▼</source>
        <translation>▼</translation>
    </message>
    <message>
        <source>Find the next match (F3, Enter)</source>
        <translation>查找下一个匹配项（F3、Enter）</translation>
    </message>
    <message>
        <source>Aa</source>
        <translation>Aa</translation>
    </message>
    <message>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>Whole words only</source>
        <translation>仅全字匹配</translation>
    </message>
    <message>
        <source>.*</source>
        <translation>.*</translation>
    </message>
    <message>
        <source>Regular expression (replace with \1 for a captured group)</source>
        <translation>正则表达式（替换时用 \1 引用捕获组）</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>上一个匹配项</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>下一个匹配项</translation>
    </message>
    <message>
        <source>Regular expression</source>
        <translation>正则表达式</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>无匹配项</translation>
    </message>
    <message>
        <source>✕</source>
        <translation>✕</translation>
    </message>
    <message>
        <source>Close the find bar (Esc)</source>
        <translation>关闭查找栏（Esc）</translation>
    </message>
    <message>
        <source>Close the find bar</source>
        <translation>关闭查找栏</translation>
    </message>
    <message>
        <source>Replace with</source>
        <translation>替换为</translation>
    </message>
    <message>
        <source>Replacement text</source>
        <translation>替换文本</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>Replace the selected match and find the next</source>
        <translation>替换选中的匹配项并查找下一个</translation>
    </message>
    <message>
        <source>Replace All</source>
        <translation>全部替换</translation>
    </message>
    <message>
        <source>Replace every match (one undo step)</source>
        <translation>替换所有匹配项（一步撤销）</translation>
    </message>
    <message>
        <source>Invalid pattern</source>
        <translation>无效的模式</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配项</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>已替换 %n 处</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sb::ui::ForkDialog</name>
    <message>
        <source>Fork</source>
        <translation>分叉</translation>
    </message>
    <message>
        <source>Fork checkpoint</source>
        <translation>分叉检查点</translation>
    </message>
    <message>
        <source>A new sandbox whose workspace is checkpoint %1.</source>
        <translation>工作区为检查点 %1 的新沙箱。</translation>
    </message>
    <message>
        <source>New sandbox &amp;name:</source>
        <translation>新沙箱名称(&amp;N)：</translation>
    </message>
</context>
<context>
    <name>sb::ui::IsolationStatus</name>
    <message>
        <source>Isolation of the next run</source>
        <translation>下一次运行的隔离</translation>
    </message>
    <message>
        <source>The sandbox&apos;s layers on this machine, as sandbench doctor finds them: click for the details</source>
        <translation>本机沙箱的各层，由 sandbench doctor 检测：点击查看详情</translation>
    </message>
    <message>
        <source>Isolation: checking…</source>
        <translation>隔离：检测中…</translation>
    </message>
    <message>
        <source>the policy&apos;s level</source>
        <translation>策略的级别</translation>
    </message>
    <message>
        <source>Isolation: %1</source>
        <translation>隔离：%1</translation>
    </message>
    <message>
        <source>Isolation: %1 · %2 of %3 layers</source>
        <translation>隔离：%1 · %3 层中的 %2 层</translation>
    </message>
</context>
<context>
    <name>sb::ui::JsonTreeModel</name>
    <message>
        <source>{1 member}</source>
        <translation>{1 个成员}</translation>
    </message>
    <message>
        <source>{%1 members}</source>
        <translation>{%1 个成员}</translation>
    </message>
    <message>
        <source>[1 item]</source>
        <translation>[1 项]</translation>
    </message>
    <message>
        <source>[%1 items]</source>
        <translation>[%1 项]</translation>
    </message>
    <message>
        <source>(cut: the value has more than %1 nodes)</source>
        <translation>（已截断：该值超过 %1 个节点）</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>sb::ui::LabelDialog</name>
    <message>
        <source>Label checkpoint</source>
        <translation>为检查点设置标签</translation>
    </message>
    <message>
        <source>e.g. release candidate 2 (empty: no label)</source>
        <translation>例如：候选版本 2（留空：无标签）</translation>
    </message>
    <message>
        <source>The label of checkpoint %1. Labels can change at any time; the checkpoint and its id stay as they are.</source>
        <translation>检查点 %1 的标签。标签可随时更改；检查点及其 ID 保持不变。</translation>
    </message>
    <message>
        <source>&amp;Label:</source>
        <translation>标签(&amp;L)：</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
</context>
<context>
    <name>sb::ui::LaunchAgentDialog</name>
    <message>
        <source>Step mode: pause before every call until Step or Continue</source>
        <translation>单步模式：每次调用前暂停，直到点击“单步”或“继续”</translation>
    </message>
    <message>
        <source>Launch an agent</source>
        <translation>启动智能体</translation>
    </message>
    <message>
        <source>Worked example (upgrade a dependency)</source>
        <translation>示例（升级一个依赖项）</translation>
    </message>
    <message>
        <source>Any command</source>
        <translation>任意命令</translation>
    </message>
    <message>
        <source>python3 /path/to/agent.py --flag</source>
        <translation>python3 /path/to/agent.py --flag</translation>
    </message>
    <message>
        <source>The agent&apos;s program and its arguments, split into words at spaces; double quotes keep spaces inside a word. It runs in a sandbox of its own with Sandbench as its MCP server on stdin and stdout.</source>
        <translation>智能体的程序及其参数，按空格拆分为单词；双引号可保留单词内的空格。它在自己的沙箱中运行，并以 Sandbench 作为其 MCP 服务器（通过 stdin 和 stdout）。</translation>
    </message>
    <message>
        <source>One absolute path a line: the agent program&apos;s own files (its script)</source>
        <translation>每行一个绝对路径：智能体程序自身的文件（其脚本）</translation>
    </message>
    <message>
        <source>Added to what the agent&apos;s run may read; the agent reaches its sandbox&apos;s workspace only through the tools</source>
        <translation>添加到智能体运行可读取的内容中；智能体只能通过工具访问其沙箱的工作区</translation>
    </message>
    <message>
        <source>Add file…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Preset: %1</source>
        <translation>预设：%1</translation>
    </message>
    <message>
        <source>A policy file…</source>
        <translation>策略文件…</translation>
    </message>
    <message>
        <source>/path/to/policy.yaml</source>
        <translation>/path/to/policy.yaml</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Every call waits in the control bar of the agent workspace: Step lets one go, Continue runs on to a breakpoint or the end</source>
        <translation>每次调用都会在智能体工作区的控制栏中等待：“单步”放行一次调用，“继续”运行到断点或结束</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>&amp;Agent:</source>
        <translation>智能体(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>命令(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Reads:</source>
        <translation>可读路径(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Policy:</source>
        <translation>策略(&amp;P)：</translation>
    </message>
    <message>
        <source>Policy &amp;file:</source>
        <translation>策略文件(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Sandbox:</source>
        <translation>沙箱(&amp;S)：</translation>
    </message>
    <message>
        <source>A new sandbox from main</source>
        <translation>从 main 新建沙箱</translation>
    </message>
    <message>
        <source>The store&apos;s sandboxes could not be read: %1</source>
        <translation>无法读取存储中的沙箱：%1</translation>
    </message>
    <message>
        <source>The example&apos;s own (examples/agents/policy.yaml)</source>
        <translation>示例自带的策略（examples/agents/policy.yaml）</translation>
    </message>
    <message>
        <source>The sandbox&apos;s own, else the agent preset</source>
        <translation>沙箱自身的策略，否则使用智能体预设</translation>
    </message>
    <message>
        <source>The worked example works in its own sandboxes, %1 made from %2; those an earlier demo or launch left are replaced (their sessions stay, as history).</source>
        <translation>示例在自己的沙箱中工作，%1 从 %2 创建；之前的演示或启动留下的沙箱会被替换（其会话作为历史保留）。</translation>
    </message>
    <message>
        <source>A new sandbox is named agent-XXXXXXXX; the agent works in its workspace through the tools.</source>
        <translation>新沙箱命名为 agent-XXXXXXXX；智能体通过工具在其工作区中工作。</translation>
    </message>
    <message>
        <source>Type the agent&apos;s command line.</source>
        <translation>请输入智能体的命令行。</translation>
    </message>
    <message>
        <source>Give the program as an absolute path or a name on PATH: the agent runs in a work dir of its own, where %1 means nothing.</source>
        <translation>请以绝对路径或 PATH 中的名称给出程序：智能体在自己的工作目录中运行，%1 在那里没有意义。</translation>
    </message>
    <message>
        <source>%1 is not an executable file.</source>
        <translation>%1 不是可执行文件。</translation>
    </message>
    <message>
        <source>No program %1 on PATH.</source>
        <translation>PATH 中没有程序 %1。</translation>
    </message>
    <message>
        <source>Read path %1: give an absolute path.</source>
        <translation>可读路径 %1：请给出绝对路径。</translation>
    </message>
    <message>
        <source>Read path %1 does not exist.</source>
        <translation>可读路径 %1 不存在。</translation>
    </message>
    <message>
        <source>Choose a policy file.</source>
        <translation>请选择策略文件。</translation>
    </message>
    <message>
        <source>No policy file %1.</source>
        <translation>没有策略文件 %1。</translation>
    </message>
    <message>
        <source>The policy file cannot be used: %1</source>
        <translation>无法使用该策略文件：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n word(s): %1</source>
        <translation>
            <numerusform>%n 个单词：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>A folder the agent&apos;s program reads</source>
        <translation>智能体程序读取的文件夹</translation>
    </message>
    <message>
        <source>A file the agent&apos;s program reads</source>
        <translation>智能体程序读取的文件</translation>
    </message>
    <message>
        <source>A policy for the agent</source>
        <translation>智能体的策略</translation>
    </message>
    <message>
        <source>Policies (*.yaml *.yml);;All files (*)</source>
        <translation>策略 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>sb::ui::MainWindow</name>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Run the snippet in the sandbox (Ctrl+Return)</source>
        <translation>在沙箱中运行代码片段（Ctrl+Return）</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Cancel the running job (Esc)</source>
        <translation>取消正在运行的任务（Esc）</translation>
    </message>
    <message>
        <source>&amp;Demo</source>
        <translation>演示(&amp;D)</translation>
    </message>
    <message>
        <source>Run every demo case: moves every counter and chart</source>
        <translation>运行所有演示用例：让每个计数器和图表都有数据</translation>
    </message>
    <message>
        <source>&amp;About Sandbench</source>
        <translation>关于 Sandbench(&amp;A)</translation>
    </message>
    <message>
        <source>Check&amp;points</source>
        <translation>检查点(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Rules</source>
        <translation>规则(&amp;R)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>Shell</source>
        <translation>Shell</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Wall-clock limit: the whole run is killed when it is reached</source>
        <translation>挂钟时间限制：达到时终止整个运行</translation>
    </message>
    <message>
        <source>&amp;Timeout:</source>
        <translation>超时(&amp;T)：</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Address-space limit of the run</source>
        <translation>运行的地址空间限制</translation>
    </message>
    <message>
        <source>&amp;Memory:</source>
        <translation>内存(&amp;M)：</translation>
    </message>
    <message>
        <source>Isolation level of the run (sandbench doctor explains what this machine offers)</source>
        <translation>运行的隔离级别（sandbench doctor 会说明本机提供的隔离能力）</translation>
    </message>
    <message>
        <source>&amp;Isolation:</source>
        <translation>隔离(&amp;I)：</translation>
    </message>
    <message>
        <source>Double-click a run to load its snippet into the editor</source>
        <translation>双击某次运行可将其代码片段载入编辑器</translation>
    </message>
    <message>
        <source>Run history</source>
        <translation>运行历史</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Agent sessions</source>
        <translation>智能体会话</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Sandboxes</source>
        <translation>沙箱(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Store: %1</source>
        <translation>存储：%1</translation>
    </message>
    <message>
        <source>The store %1 could not be opened: %2
Runs still work but are not recorded; the file was left untouched.</source>
        <translation>无法打开存储 %1：%2
仍可运行，但不会被记录；文件保持不变。</translation>
    </message>
    <message>
        <source>Store unavailable</source>
        <translation>存储不可用</translation>
    </message>
    <message>
        <source>The run was not started: %1</source>
        <translation>运行未启动：%1</translation>
    </message>
    <message>
        <source>The demo was not started: an agent launched from the agent workspace runs; stop it or let it end first</source>
        <translation>演示未启动：从智能体工作区启动的智能体正在运行；请先停止它或等待其结束</translation>
    </message>
    <message>
        <source>The demo was not started: %1</source>
        <translation>演示未启动：%1</translation>
    </message>
    <message>
        <source>Demo %v/%m</source>
        <translation>演示 %v/%m</translation>
    </message>
    <message numerus="yes">
        <source>Demo: %n case(s)</source>
        <translation>
            <numerusform>演示：%n 个用例</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Demo case %1 of %2: %3</source>
        <translation>演示用例 %1/%2：%3</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>The run could not be recorded: %1</source>
        <translation>无法记录该运行：%1</translation>
    </message>
    <message>
        <source>Demo cancelled.</source>
        <translation>演示已取消。</translation>
    </message>
    <message>
        <source>Demo finished: every case ended as expected.</source>
        <translation>演示完成：所有用例均按预期结束。</translation>
    </message>
    <message numerus="yes">
        <source>Demo finished: %n case(s) ended unexpectedly.</source>
        <translation>
            <numerusform>演示完成：%n 个用例未按预期结束。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Loaded the snippet of the run from %1</source>
        <translation>已载入 %1 那次运行的代码片段</translation>
    </message>
    <message>
        <source>%1 %2 is not listed in the window (removed, or older than the list shows)</source>
        <translation>%1 %2 未在窗口中列出（已删除，或早于列表显示的范围）</translation>
    </message>
    <message>
        <source>Open snippet</source>
        <translation>打开代码片段</translation>
    </message>
    <message>
        <source>Snippets (*.py *.sh);;All files (*)</source>
        <translation>代码片段 (*.py *.sh);;所有文件 (*)</translation>
    </message>
    <message>
        <source>This file cannot be opened:</source>
        <translation>无法打开此文件：</translation>
    </message>
    <message>
        <source>Save snippet</source>
        <translation>保存代码片段</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>snippet.sh</source>
        <translation>snippet.sh</translation>
    </message>
    <message>
        <source>snippet.py</source>
        <translation>snippet.py</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The snippet has been modified. Save your changes?</source>
        <translation>代码片段已修改。是否保存更改？</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>%1[*] — Sandbench</source>
        <translation>%1[*] — Sandbench</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清除列表</translation>
    </message>
    <message>
        <source>About Sandbench</source>
        <translation>关于 Sandbench</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Sandbench %1&lt;/h3&gt;&lt;p&gt;A workbench for running what you do not trust: snippets run in an operating-system sandbox, every outcome is measured and kept in one SQLite store.&lt;/p&gt;&lt;p&gt;Store: &lt;code&gt;%2&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Sandbench %1&lt;/h3&gt;&lt;p&gt;用于运行您不信任的代码的工作台：代码片段在操作系统沙箱中运行，每个结果都会被测量并保存在一个 SQLite 存储中。&lt;/p&gt;&lt;p&gt;存储：&lt;code&gt;%2&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel the running job</source>
        <translation>取消正在运行的任务</translation>
    </message>
    <message>
        <source>Blocked by the sandbox: import of %1</source>
        <translation>被沙箱阻止：导入 %1</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <source>Read Sandbench&apos;s documentation (F1)</source>
        <translation>阅读 Sandbench 的文档（F1）</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>The default policy in Edit ▸ Settings cannot rule a run: %1</source>
        <translation>“编辑 ▸ 设置”中的默认策略无法用于运行：%1</translation>
    </message>
    <message>
        <source>Open &amp;Demo Store</source>
        <translation>打开演示存储(&amp;D)</translation>
    </message>
    <message>
        <source>Open a new window on a fresh demo store, for training; your store stays as it is</source>
        <translation>在新窗口中打开一个全新的演示存储用于培训；您的存储保持不变</translation>
    </message>
    <message>
        <source>&amp;Play Demo</source>
        <translation>播放演示(&amp;P)</translation>
    </message>
    <message>
        <source>Walk through the demo store&apos;s parts in about a minute (in a window on your own store, a demo store opens first)</source>
        <translation>在大约一分钟内浏览演示存储的各个部分（在使用您自己存储的窗口中，会先打开一个演示存储）</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>Find in the snippet, or in the rule set being edited (Ctrl+F)</source>
        <translation>在代码片段或正在编辑的规则集中查找（Ctrl+F）</translation>
    </message>
    <message>
        <source>&amp;Replace…</source>
        <translation>替换(&amp;R)…</translation>
    </message>
    <message>
        <source>Find and replace in the snippet, or in the rule set being edited (Ctrl+H)</source>
        <translation>在代码片段或正在编辑的规则集中查找并替换（Ctrl+H）</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <source>Find &amp;Previous</source>
        <translation>查找上一个(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>Store, default policy, editor font, theme and language (Ctrl+,)</source>
        <translation>存储、默认策略、编辑器字体、主题和语言（Ctrl+,）</translation>
    </message>
    <message>
        <source> (Ctrl+%1)</source>
        <translation>（Ctrl+%1）</translation>
    </message>
    <message>
        <source>&amp;Snippets</source>
        <translation>代码片段(&amp;S)</translation>
    </message>
    <message>
        <source>Snippets: the editor, a run&apos;s output and the run history</source>
        <translation>代码片段：编辑器、运行输出和运行历史</translation>
    </message>
    <message>
        <source>Rules: rule sets, evaluation on a dataset, A/B comparison</source>
        <translation>规则：规则集、在数据集上的评估、A/B 对比</translation>
    </message>
    <message>
        <source>&amp;Agents</source>
        <translation>智能体(&amp;A)</translation>
    </message>
    <message>
        <source>Agents: sessions, their timeline, steps and diffs</source>
        <translation>智能体：会话、其时间线、步骤和差异</translation>
    </message>
    <message>
        <source>Checkpoints &amp; promotion: sandboxes, their checkpoints, diffs and the gate</source>
        <translation>检查点与发布：沙箱、其检查点、差异和发布关卡</translation>
    </message>
    <message>
        <source>A&amp;udit</source>
        <translation>审计(&amp;U)</translation>
    </message>
    <message>
        <source>Audit: the signed log of everything done, verified</source>
        <translation>审计：所有操作的签名日志，可校验</translation>
    </message>
    <message>
        <source>Das&amp;hboard</source>
        <translation>仪表板(&amp;H)</translation>
    </message>
    <message>
        <source>Dashboard: outcomes, durations, blocked events, agent steps and promotions</source>
        <translation>仪表板：结果、耗时、被阻止的事件、智能体步骤和发布</translation>
    </message>
    <message>
        <source>Reset Workspace &amp;Layout</source>
        <translation>重置工作区布局(&amp;L)</translation>
    </message>
    <message>
        <source>Show the current workspace&apos;s panels as they were at first</source>
        <translation>将当前工作区的面板恢复为初始布局</translation>
    </message>
    <message>
        <source>The sandbox the next runs work in: its workspace is theirs, their changes are checkpointed there</source>
        <translation>下一次运行所在的沙箱：其工作区供这些运行使用，其更改会在那里记录检查点</translation>
    </message>
    <message>
        <source>None (a fresh folder)</source>
        <translation>无（全新文件夹）</translation>
    </message>
    <message>
        <source>San&amp;dbox:</source>
        <translation>沙箱(&amp;D)：</translation>
    </message>
    <message>
        <source>The policy of the next run: what it may read, write, import and reach</source>
        <translation>下一次运行的策略：它可以读取、写入、导入和访问什么</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>The sandbox&apos;s own</source>
        <translation>沙箱自身的策略</translation>
    </message>
    <message>
        <source>Policy file…</source>
        <translation>策略文件…</translation>
    </message>
    <message>
        <source>&amp;Policy:</source>
        <translation>策略(&amp;P)：</translation>
    </message>
    <message>
        <source>from the policy</source>
        <translation>由策略决定</translation>
    </message>
    <message>
        <source>%1 (archived)</source>
        <translation>%1（已归档）</translation>
    </message>
    <message>
        <source>Sandbox %1 is gone: the next runs work in a fresh folder</source>
        <translation>沙箱 %1 已不存在：下一次运行将在全新文件夹中进行</translation>
    </message>
    <message>
        <source>Policy for the next runs</source>
        <translation>下一次运行的策略</translation>
    </message>
    <message>
        <source>Policies (*.yaml *.yml);;All files (*)</source>
        <translation>策略 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Workspace</source>
        <translation>工作区(&amp;W)</translation>
    </message>
    <message>
        <source>Demo store</source>
        <translation>演示存储</translation>
    </message>
    <message>
        <source>A demo store opens in a new window…</source>
        <translation>演示存储将在新窗口中打开…</translation>
    </message>
    <message>
        <source>The demo store was not opened: %1 did not start</source>
        <translation>未打开演示存储：%1 未能启动</translation>
    </message>
    <message>
        <source>Cancelled: the demo store holds only what ran before</source>
        <translation>已取消：演示存储仅包含此前已运行的内容</translation>
    </message>
    <message>
        <source>%1[*] in sandbox %2 — Sandbench</source>
        <translation>%1[*]，沙箱 %2 — Sandbench</translation>
    </message>
    <message>
        <source>%1 (demo store)</source>
        <translation>%1（演示存储）</translation>
    </message>
    <message>
        <source>Unsaved changes are not backed up: %1</source>
        <translation>未保存的更改无法备份：%1</translation>
    </message>
    <message>
        <source>Restored the unsaved snippet of the last session</source>
        <translation>已恢复上次会话中未保存的代码片段</translation>
    </message>
    <message>
        <source>Settings saved</source>
        <translation>设置已保存</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>%1 is a policy. Use it as the default policy of your runs?</source>
        <translation>%1 是一个策略。要将其用作您运行的默认策略吗？</translation>
    </message>
    <message>
        <source>It can be changed in Edit ▸ Settings.</source>
        <translation>可在“编辑 ▸ 设置”中更改。</translation>
    </message>
    <message>
        <source>Runs use the policy %1</source>
        <translation>运行将使用策略 %1</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Sandbench does not know how to open %1.</source>
        <translation>Sandbench 不知道如何打开 %1。</translation>
    </message>
    <message>
        <source>Drop a snippet (.py, .sh), a rule set or policy (.yaml), or a dataset (.csv, .jsonl).</source>
        <translation>请拖放代码片段（.py、.sh）、规则集或策略（.yaml），或数据集（.csv、.jsonl）。</translation>
    </message>
    <message>
        <source>The window no longer follows the store: %1</source>
        <translation>窗口不再跟随存储：%1</translation>
    </message>
    <message>
        <source>Cannot read the store again: %1</source>
        <translation>无法重新读取存储：%1</translation>
    </message>
    <message>
        <source>The window does not follow changes made by other programs: %1</source>
        <translation>窗口不会跟随其他程序所做的更改：%1</translation>
    </message>
    <message>
        <source>Restored, but not backed up: %1</source>
        <translation>已恢复，但未备份：%1</translation>
    </message>
    <message>
        <source>Cluster jobs</source>
        <translation>集群作业</translation>
    </message>
    <message>
        <source>Cluster jobs (%1)</source>
        <translation>集群作业 (%1)</translation>
    </message>
    <message>
        <source>Cancelled before the sandbox started: nothing ran.</source>
        <translation>在沙箱启动前已取消：没有运行任何内容。</translation>
    </message>
    <message>
        <source>The run ended before its sandbox started: nothing ran.</source>
        <translation>运行在其沙箱启动前结束：没有运行任何内容。</translation>
    </message>
</context>
<context>
    <name>sb::ui::MetricsDashboard</name>
    <message>
        <source>The runs the counters and charts count: those started in this span of time</source>
        <translation>计数器和图表统计的运行：在此时间段内启动的运行</translation>
    </message>
    <message>
        <source>Show every run again</source>
        <translation>重新显示所有运行</translation>
    </message>
    <message>
        <source>Runs of:</source>
        <translation>运行范围：</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>OK rate</source>
        <translation>成功率</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>已阻止</translation>
    </message>
    <message>
        <source>Timeouts</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>Runs by outcome</source>
        <translation>按结果统计的运行</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Run duration</source>
        <translation>运行时长</translation>
    </message>
    <message>
        <source>runs</source>
        <translation>次运行</translation>
    </message>
    <message>
        <source>Duration (ms)</source>
        <translation>时长（毫秒）</translation>
    </message>
    <message>
        <source>Runs over time</source>
        <translation>运行随时间变化</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Click a bar or point to show only those runs; right-click to save the chart</source>
        <translation>单击条形或数据点可只显示这些运行；右键单击可保存图表</translation>
    </message>
    <message>
        <source>Only %1 ✕</source>
        <translation>仅 %1 ✕</translation>
    </message>
    <message>
        <source>%1: %2 (%3 % of %4)</source>
        <translation>%1：%2（占 %4 的 %3 %）</translation>
    </message>
    <message>
        <source>%1 ms: %2</source>
        <translation>%1 毫秒：%2</translation>
    </message>
    <message>
        <source>Time (%1)</source>
        <translation>时间（%1）</translation>
    </message>
    <message>
        <source>Time (%1 – %2)</source>
        <translation>时间（%1 – %2）</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Runs per %1</source>
        <translation>每%1运行次数</translation>
    </message>
    <message>
        <source>%1 – %2: %3 %4</source>
        <translation>%1 – %2：%3 %4</translation>
    </message>
    <message>
        <source>%1 ms: %2 (%3 here)</source>
        <translation>%1 ms：%2（此处 %3）</translation>
    </message>
    <message>
        <source>Run duration · p50 %1 · p95 %2 · p99 %3</source>
        <translation>运行时长 · p50 %1 · p95 %2 · p99 %3</translation>
    </message>
</context>
<context>
    <name>sb::ui::NewSandboxDialog</name>
    <message>
        <source>none (e.g. 500M, 2G)</source>
        <translation>无（例如 500M、2G）</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source>Unused this long, the sandbox is archived by the next sweep: its work is checkpointed, its folder removed until it is used again</source>
        <translation>闲置达到此时长后，沙箱会在下次清理时被归档：其工作会创建检查点，其文件夹会被删除，直到再次使用</translation>
    </message>
    <message>
        <source>Give the sandbox a name.</source>
        <translation>请为沙箱命名。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>New sandbox</source>
        <translation>新建沙箱</translation>
    </message>
    <message>
        <source>e.g. try-new-rules</source>
        <translation>例如：try-new-rules</translation>
    </message>
    <message>
        <source>main (production)</source>
        <translation>main（生产环境）</translation>
    </message>
    <message>
        <source>sandbox %1</source>
        <translation>沙箱 %1</translation>
    </message>
    <message>
        <source>checkpoint %1</source>
        <translation>检查点 %1</translation>
    </message>
    <message>
        <source>a folder to import…</source>
        <translation>要导入的文件夹…</translation>
    </message>
    <message>
        <source>A sandbox&apos;s current workspace (unsaved changes are checkpointed first), a checkpoint, or a folder copied in (never mounted)</source>
        <translation>某个沙箱的当前工作区（未保存的更改会先创建检查点）、某个检查点，或复制进来的文件夹（从不挂载）</translation>
    </message>
    <message>
        <source>folder to copy into the new workspace</source>
        <translation>要复制到新工作区的文件夹</translation>
    </message>
    <message>
        <source>all files (e.g. rules/** data/*.csv)</source>
        <translation>所有文件（例如 rules/** data/*.csv）</translation>
    </message>
    <message>
        <source>Only paths matching one of these globs (separated by spaces or commas)</source>
        <translation>仅包含匹配这些通配模式之一的路径（以空格或逗号分隔）</translation>
    </message>
    <message>
        <source>none (e.g. *.log build/**)</source>
        <translation>无（例如 *.log build/**）</translation>
    </message>
    <message>
        <source>Leave out paths matching one of these globs</source>
        <translation>排除匹配这些通配模式之一的路径</translation>
    </message>
    <message>
        <source>After this long the sandbox is destroyed by the next sweep (e.g. 2h, 1d12h, 7d)</source>
        <translation>超过此时长后，沙箱会在下次清理时被销毁（例如 2h、1d12h、7d）</translation>
    </message>
    <message>
        <source>The most its workspace may hold: creation, checkpoints and runs are held to it</source>
        <translation>其工作区可容纳的上限：创建、检查点和运行都受此限制</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>来源(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Import:</source>
        <translation>导入(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Include:</source>
        <translation>包含(&amp;I)：</translation>
    </message>
    <message>
        <source>E&amp;xclude:</source>
        <translation>排除(&amp;X)：</translation>
    </message>
    <message>
        <source>&amp;Expires in:</source>
        <translation>过期时间(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Quota:</source>
        <translation>配额(&amp;Q)：</translation>
    </message>
    <message>
        <source>Archive when i&amp;dle for:</source>
        <translation>闲置多久后归档(&amp;D)：</translation>
    </message>
    <message>
        <source>Folder to import</source>
        <translation>要导入的文件夹</translation>
    </message>
    <message>
        <source>Choose the folder to import.</source>
        <translation>请选择要导入的文件夹。</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 不是文件夹。</translation>
    </message>
</context>
<context>
    <name>sb::ui::OutputPane</name>
    <message>
        <source>Output of the run appears here. Press Ctrl+Return to run the snippet.</source>
        <translation>运行的输出显示在此处。按 Ctrl+Return 运行代码片段。</translation>
    </message>
    <message>
        <source>no run yet</source>
        <translation>尚未运行</translation>
    </message>
    <message>
        <source>Run a snippet to see its outcome, timings and isolation layers.</source>
        <translation>运行代码片段以查看其结果、耗时和隔离层。</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Running in the sandbox…</source>
        <translation>正在沙箱中运行…</translation>
    </message>
    <message>
        <source>Running %1 in the sandbox…</source>
        <translation>正在沙箱中运行 %1…</translation>
    </message>
    <message>
        <source>Duration %1 · CPU %2 · Peak RSS %3</source>
        <translation>时长 %1 · CPU %2 · 峰值 RSS %3</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>signal %1</source>
        <translation>信号 %1</translation>
    </message>
    <message>
        <source>[output truncated]</source>
        <translation>[输出已截断]</translation>
    </message>
    <message>
        <source>stdout</source>
        <translation>stdout</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>stderr</source>
        <translation>stderr</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>已阻止</translation>
    </message>
    <message>
        <source>the program says (not observed by the sandbox)</source>
        <translation>程序自述（未被沙箱观察到）</translation>
    </message>
    <message>
        <source>Isolation of the run</source>
        <translation>运行的隔离</translation>
    </message>
    <message>
        <source>hide layers</source>
        <translation>隐藏隔离层</translation>
    </message>
    <message>
        <source>show layers</source>
        <translation>显示隔离层</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; isolation · %2 of %3 layers active</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 隔离 · %3 层中 %2 层生效</translation>
    </message>
    <message>
        <source>The isolation layers this run really had:</source>
        <translation>本次运行实际具备的隔离层：</translation>
    </message>
    <message>
        <source>Blocked %1: %2</source>
        <translation>已阻止 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>(and %n more)</source>
        <translation>
            <numerusform>（另有 %n 项）</numerusform>
        </translation>
    </message>
    <message>
        <source>demo…</source>
        <translation>演示…</translation>
    </message>
    <message>
        <source>demo</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>The log below is the demo&apos;s; the snippet in the editor has not run.</source>
        <translation>下方日志来自演示；编辑器中的代码片段尚未运行。</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
</context>
<context>
    <name>sb::ui::PromotionDialog</name>
    <message>
        <source>Low risk</source>
        <translation>低风险</translation>
    </message>
    <message>
        <source>Medium risk</source>
        <translation>中风险</translation>
    </message>
    <message>
        <source>High risk</source>
        <translation>高风险</translation>
    </message>
    <message>
        <source>both modified</source>
        <translation>双方均已修改</translation>
    </message>
    <message>
        <source>modified and deleted</source>
        <translation>一方修改，一方删除</translation>
    </message>
    <message>
        <source>added on both sides</source>
        <translation>双方均已添加</translation>
    </message>
    <message>
        <source>type changed</source>
        <translation>类型已更改</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Preview again</source>
        <translation>重新预览</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>冲突</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>审批</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save patch…</source>
        <translation>保存补丁…</translation>
    </message>
    <message>
        <source>Promote</source>
        <translation>发布</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Promote %1</source>
        <translation>发布 %1</translation>
    </message>
    <message>
        <source>Run the preview again, e.g. after editing the sandbox</source>
        <translation>重新运行预览，例如在编辑沙箱之后</translation>
    </message>
    <message>
        <source>Into:</source>
        <translation>发布到：</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>What each side did</source>
        <translation>双方各自所做的更改</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>解决方式</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Compatibility checks</source>
        <translation>兼容性检查</translation>
    </message>
    <message>
        <source>who approves</source>
        <translation>审批人</translation>
    </message>
    <message>
        <source>why this change may go in</source>
        <translation>为何可以合入此更改</translation>
    </message>
    <message>
        <source>Approved by:</source>
        <translation>审批人：</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>Write the files the promotion would add or change, and its report, to a new or empty folder</source>
        <translation>将发布会添加或更改的文件及其报告写入一个新的或空的文件夹</translation>
    </message>
    <message>
        <source>Write the change as a git-style patch</source>
        <translation>将更改写为 git 格式的补丁</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>The promotion is being applied: wait until it ends.</source>
        <translation>正在应用发布：请等待其结束。</translation>
    </message>
    <message>
        <source>Another promotion job is running: wait until it ends.</source>
        <translation>另一个发布任务正在运行：请等待其结束。</translation>
    </message>
    <message>
        <source>Previewing %1 → %2…</source>
        <translation>正在预览 %1 → %2…</translation>
    </message>
    <message>
        <source>Promoting %1 → %2…</source>
        <translation>正在发布 %1 → %2…</translation>
    </message>
    <message>
        <source>Exporting %1 → %2…</source>
        <translation>正在导出 %1 → %2…</translation>
    </message>
    <message>
        <source>Writing the patch of %1 → %2…</source>
        <translation>正在写入 %1 → %2 的补丁…</translation>
    </message>
    <message>
        <source>Preview cancelled: press Preview again to run it.</source>
        <translation>预览已取消：按“重新预览”以运行预览。</translation>
    </message>
    <message>
        <source>Cancelled: nothing was changed.</source>
        <translation>已取消：未做任何更改。</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Nothing to promote: %1 already holds every change of %2.</source>
        <translation>无需发布：%1 已包含 %2 的所有更改。</translation>
    </message>
    <message>
        <source>Blocked by a conflict: see below how to resolve it.</source>
        <translation>被冲突阻止：请参阅下方的解决方法。</translation>
    </message>
    <message>
        <source>Blocked by %1 conflicts: see below how to resolve them.</source>
        <translation>被 %1 个冲突阻止：请参阅下方的解决方法。</translation>
    </message>
    <message>
        <source>Blocked: a compatibility check failed (below). Fix it in the sandbox and preview again.</source>
        <translation>被阻止：兼容性检查未通过（见下方）。请在沙箱中修复后重新预览。</translation>
    </message>
    <message>
        <source>%1: name who approves and write a note to promote.</source>
        <translation>%1：请填写审批人并写一条备注后再发布。</translation>
    </message>
    <message>
        <source>Ready to promote.</source>
        <translation>可以发布。</translation>
    </message>
    <message>
        <source>Promoted: %1 now holds the change, as checkpoint %2.</source>
        <translation>已发布：%1 现已包含此更改，记为检查点 %2。</translation>
    </message>
    <message>
        <source>Nothing to promote: %1 already holds every change.</source>
        <translation>无需发布：%1 已包含所有更改。</translation>
    </message>
    <message>
        <source>Not promoted: %1</source>
        <translation>未发布：%1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <source>Patch written to %1</source>
        <translation>补丁已写入 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Risk: …</source>
        <translation>风险：…</translation>
    </message>
    <message>
        <source>none (the two share no checkpoint)</source>
        <translation>无（两者没有共同的检查点）</translation>
    </message>
    <message>
        <source>%1 + unsaved changes</source>
        <translation>%1 + 未保存的更改</translation>
    </message>
    <message>
        <source>Source &lt;b&gt;%1&lt;/b&gt; (%2) → target &lt;b&gt;%3&lt;/b&gt; (%4) · common ancestor %5</source>
        <translation>源 &lt;b&gt;%1&lt;/b&gt;（%2）→ 目标 &lt;b&gt;%3&lt;/b&gt;（%4）· 共同祖先 %5</translation>
    </message>
    <message>
        <source>No risk rule applies.</source>
        <translation>没有适用的风险规则。</translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 files&lt;/b&gt; change: %2 added, %3 modified, %4 removed · lines +%5 −%6 · bytes +%7 −%8</source>
        <translation>&lt;b&gt;%1 个文件&lt;/b&gt;有更改：新增 %2，修改 %3，删除 %4 · 行 +%5 −%6 · 字节 +%7 −%8</translation>
    </message>
    <message>
        <source>binary</source>
        <translation>二进制</translation>
    </message>
    <message>
        <source>too large</source>
        <translation>过大</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>No policy files to check.</source>
        <translation>没有需要检查的策略文件。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rule impact&lt;/b&gt;: %1 changes the decision of &lt;b&gt;%2 of %3&lt;/b&gt; records (%4 %) in %5</source>
        <translation>&lt;b&gt;规则影响&lt;/b&gt;：%1 改变了 %5 中 &lt;b&gt;%3 条记录中 %2 条&lt;/b&gt;的决策（%4 %）</translation>
    </message>
    <message>
        <source>&lt;b&gt;New rule set&lt;/b&gt; %1: no current version in %2 to count flipped decisions against; it decides from now on.</source>
        <translation>&lt;b&gt;新规则集&lt;/b&gt; %1：%2 中没有可用于统计决策变化的当前版本；从现在起由它决策。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rule impact not measured&lt;/b&gt; for %1: sandbox %2 refers to no dataset (&lt;tt&gt;sandbench sandbox set %2 --dataset NAME&lt;/tt&gt;).</source>
        <translation>&lt;b&gt;规则影响未测量&lt;/b&gt;（%1）：沙箱 %2 未关联任何数据集（&lt;tt&gt;sandbench sandbox set %2 --dataset NAME&lt;/tt&gt;）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rule impact not measured&lt;/b&gt; for %1: it does not compile against %2 (see the checks).</source>
        <translation>&lt;b&gt;规则影响未测量&lt;/b&gt;（%1）：它无法针对 %2 编译（见检查结果）。</translation>
    </message>
    <message>
        <source>edit the sandbox</source>
        <translation>编辑沙箱</translation>
    </message>
    <message>
        <source>Unresolved</source>
        <translation>未解决</translation>
    </message>
    <message>
        <source>Take source (%1)</source>
        <translation>采用源版本（%1）</translation>
    </message>
    <message>
        <source>Take target (%1)</source>
        <translation>采用目标版本（%1）</translation>
    </message>
    <message>
        <source>A conflict blocks the promotion</source>
        <translation>一个冲突阻止了发布</translation>
    </message>
    <message>
        <source>%1 conflicts block the promotion</source>
        <translation>%1 个冲突阻止了发布</translation>
    </message>
    <message>
        <source>Both %1 and %2 changed these paths since their common ancestor. Resolve each: edit the sandbox (e.g. take the target&apos;s version there and redo your part), then press Preview again — or settle a path here by taking the source&apos;s or the target&apos;s version wholesale.</source>
        <translation>%1 和 %2 自其共同祖先以来都更改了这些路径。请逐一解决：编辑沙箱（例如在其中采用目标的版本并重做您的部分），然后按“重新预览”——或在此处整体采用源或目标的版本来解决某个路径。</translation>
    </message>
    <message>
        <source>Conflicts settled</source>
        <translation>冲突已解决</translation>
    </message>
    <message>
        <source>Every conflict is settled by the side chosen; the promotion records the choices.</source>
        <translation>每个冲突都已按所选一方解决；发布会记录这些选择。</translation>
    </message>
    <message>
        <source>Binary file %1</source>
        <translation>二进制文件 %1</translation>
    </message>
    <message numerus="yes">
        <source>The diff of this file is not shown: the promotion changes more than %n files.</source>
        <translation>
            <numerusform>未显示此文件的差异：此次发布更改的文件超过 %n 个。</numerusform>
        </translation>
    </message>
    <message>
        <source>Press Preview again to see this file&apos;s diff.</source>
        <translation>按“重新预览”以查看此文件的差异。</translation>
    </message>
    <message>
        <source>Press Preview again to see this conflict&apos;s diff.</source>
        <translation>按“重新预览”以查看此冲突的差异。</translation>
    </message>
    <message>
        <source>%1: a name and a note are required to promote.</source>
        <translation>%1：发布需要填写审批人姓名和备注。</translation>
    </message>
    <message>
        <source>Name who approves.</source>
        <translation>请填写审批人。</translation>
    </message>
    <message>
        <source>Write a note: why this change may go in.</source>
        <translation>请写一条备注：为何可以合入此更改。</translation>
    </message>
    <message>
        <source>Approval (required: %1)</source>
        <translation>审批（必需：%1）</translation>
    </message>
    <message>
        <source>Approval (optional)</source>
        <translation>审批（可选）</translation>
    </message>
    <message>
        <source>The approval is recorded in the audit log.</source>
        <translation>审批会记录在审计日志中。</translation>
    </message>
    <message>
        <source>Optional: an approval given here is recorded.</source>
        <translation>可选：在此给出的审批会被记录。</translation>
    </message>
    <message>
        <source>Resolve the conflicts first</source>
        <translation>请先解决冲突</translation>
    </message>
    <message>
        <source>Apply the change to %1, atomically, as a &apos;promote&apos; checkpoint</source>
        <translation>以原子方式将更改应用到 %1，记为“promote”检查点</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Export the promotion to a new or empty folder</source>
        <translation>将发布导出到一个新的或空的文件夹</translation>
    </message>
    <message>
        <source>Save the promotion as a patch</source>
        <translation>将发布另存为补丁</translation>
    </message>
    <message>
        <source>Patches (*.patch *.diff)</source>
        <translation>补丁 (*.patch *.diff)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 file&lt;/b&gt; changes: %2 added, %3 modified, %4 removed · lines +%5 −%6 · bytes +%7 −%8</source>
        <translation>&lt;b&gt;%1 个文件&lt;/b&gt;有更改：新增 %2，修改 %3，删除 %4 · 行 +%5 −%6 · 字节 +%7 −%8</translation>
    </message>
    <message>
        <source>low</source>
        <translation>低</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>中</translation>
    </message>
    <message>
        <source>high</source>
        <translation>高</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>sb::ui::PromotionJobRunner</name>
    <message>
        <source>Folder %1: its permissions or presence changed.</source>
        <translation>文件夹 %1：其权限或存在状态已更改。</translation>
    </message>
    <message>
        <source>%1 is too large to show as text.</source>
        <translation>%1 过大，无法以文本显示。</translation>
    </message>
    <message>
        <source>Binary files differ: %1</source>
        <translation>二进制文件不同：%1</translation>
    </message>
    <message>
        <source>Only the permissions of %1 changed.</source>
        <translation>仅 %1 的权限已更改。</translation>
    </message>
    <message>
        <source>not hashed: larger than %1 bytes</source>
        <translation>未计算哈希：大于 %1 字节</translation>
    </message>
    <message>
        <source>%1: %2 bytes, %3</source>
        <translation>%1：%2 字节，%3</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <source>A binary file cannot be shown as text: compare its checksum with the file you expect, or export the promotion to inspect it.</source>
        <translation>二进制文件无法以文本显示：请将其校验和与预期的文件比较，或导出此次发布以检查它。</translation>
    </message>
</context>
<context>
    <name>sb::ui::RecoveryBar</name>
    <message>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>D&amp;iscard</source>
        <translation>丢弃(&amp;I)</translation>
    </message>
    <message numerus="yes">
        <source>The last session left an untitled snippet unsaved (%n line(s)). Restore it?</source>
        <translation>
            <numerusform>上次会话留下了一个未保存的未命名代码片段（%n 行）。要恢复吗？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The last session left changes to %1 unsaved (%n line(s)). Restore them?</source>
        <translation>
            <numerusform>上次会话留下了对 %1 的未保存更改（%n 行）。要恢复吗？</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sb::ui::ReplayPolicyDialog</name>
    <message>
        <source>Replay under a policy</source>
        <translation>在策略下重放</translation>
    </message>
    <message>
        <source>Session %1&apos;s calls run again, in order, from its first checkpoint in a new sandbox, ruled by the policy chosen here. The replay is recorded as a session of its own and compared with the original step by step.</source>
        <translation>会话 %1 的调用会在新沙箱中从其第一个检查点开始按顺序重新运行，并由此处选择的策略裁决。重放会记录为独立的会话，并与原会话逐步比较。</translation>
    </message>
    <message>
        <source>preset %1</source>
        <translation>预设 %1</translation>
    </message>
    <message>
        <source>Policy file…</source>
        <translation>策略文件…</translation>
    </message>
    <message>
        <source>A policy YAML file (its agent: section rules the calls)</source>
        <translation>策略 YAML 文件（其 agent: 部分裁决调用）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Policy file</source>
        <translation>策略文件</translation>
    </message>
    <message>
        <source>Policies (*.yaml *.yml);;All files (*)</source>
        <translation>策略 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Policy:</source>
        <translation>策略：</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>This policy cannot rule a replay: %1</source>
        <translation>此策略无法用于裁决重放：%1</translation>
    </message>
</context>
<context>
    <name>sb::ui::RuleSetEditor</name>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesCharts</name>
    <message>
        <source>Evaluate or compare to see decisions here</source>
        <translation>评估或比较后可在此查看决策</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <source>Change against %1, per decision</source>
        <translation>相对 %1 的变化，按决策</translation>
    </message>
    <message>
        <source>%1 → %2: −%3</source>
        <translation>%1 → %2：−%3</translation>
    </message>
    <message>
        <source>%1 → %2: +%3</source>
        <translation>%1 → %2：+%3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2: %3 records (%4 with %5 → %6)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，%2：%3 条记录（其中 %4 条为 %5 → %6）</translation>
    </message>
    <message>
        <source>No decision changes against %1</source>
        <translation>相对 %1 没有决策变化</translation>
    </message>
    <message>
        <source>Records, variant minus baseline</source>
        <translation>记录数，变体减基线</translation>
    </message>
    <message>
        <source>Decision changes from %1 (the %2 most frequent of %3)</source>
        <translation>从 %1 出发的决策变化（%3 种中最常见的 %2 种）</translation>
    </message>
    <message>
        <source>Decision changes from %1</source>
        <translation>从 %1 出发的决策变化</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 records go from %3 to %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 条记录从 %3 变为 %4</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>记录数</translation>
    </message>
    <message>
        <source>Impact rate per variant</source>
        <translation>各变体的影响率</translation>
    </message>
    <message>
        <source>Impact rate</source>
        <translation>影响率</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 of %3 records change decision (%4); %5 more change only their score</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%3 条记录中有 %2 条决策发生变化（%4）；另有 %5 条仅分数发生变化</translation>
    </message>
    <message>
        <source>% of records whose decision changes</source>
        <translation>决策发生变化的记录百分比</translation>
    </message>
    <message>
        <source>Decisions per rule set</source>
        <translation>各规则集的决策</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2: %3 records (%4)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，%2：%3 条记录（%4）</translation>
    </message>
    <message>
        <source>Hits per rule (the %1 with the most of %2)</source>
        <translation>各规则的命中数（%2 条中命中最多的 %1 条）</translation>
    </message>
    <message>
        <source>Hits per rule</source>
        <translation>各规则的命中数</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; has no rule %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 没有规则 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2: matched %3 records, decided %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，%2：匹配 %3 条记录，决策 %4 条</translation>
    </message>
    <message>
        <source>Records the rule matched</source>
        <translation>规则匹配的记录</translation>
    </message>
    <message>
        <source>Scores of records a rule decided</source>
        <translation>由规则决策的记录的分数</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, score %2–%3: %4 records</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，分数 %2–%3：%4 条记录</translation>
    </message>
    <message>
        <source>Score, in bands of ten from the number shown</source>
        <translation>分数，从所示数值起每十分一段</translation>
    </message>
    <message>
        <source>Flagged records against the label &apos;%1&apos;</source>
        <translation>相对标签“%1”的已标记记录</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>undefined</source>
        <translation>未定义</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: precision %2 (%3 flagged records are positives, %4 are not)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：精确率 %2（%3 条已标记记录为正例，%4 条不是）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: recall %2 (%3 of %4 positives flagged)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：召回率 %2（%4 个正例中标记了 %3 个）</translation>
    </message>
    <message>
        <source>Percent</source>
        <translation>百分比</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesJobRunner</name>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesLexer</name>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>注释</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>String</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>Punctuation</source>
        <translation>标点</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Keyword</source>
        <translation>关键字</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>运算符</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesWorkspace</name>
    <message>
        <source>Open demo</source>
        <translation>打开演示</translation>
    </message>
    <message>
        <source>Open the demo rule sets (current, variant A, variant B) and the demo transactions</source>
        <translation>打开演示规则集（当前、变体 A、变体 B）和演示交易</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Open a rule set (YAML) in a new tab; the first tab is the baseline</source>
        <translation>在新标签页中打开规则集（YAML）；第一个标签页为基线</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save the rule set of the current tab</source>
        <translation>保存当前标签页的规则集</translation>
    </message>
    <message>
        <source>Data file…</source>
        <translation>数据文件…</translation>
    </message>
    <message>
        <source>Data folder…</source>
        <translation>数据文件夹…</translation>
    </message>
    <message>
        <source>Read a folder&apos;s CSV or JSON Lines files (its parts, in name order) as one dataset</source>
        <translation>将一个文件夹中的 CSV 或 JSON Lines 文件（其各个分片，按名称顺序）读取为一个数据集</translation>
    </message>
    <message>
        <source>Open data folder</source>
        <translation>打开数据文件夹</translation>
    </message>
    <message>
        <source>Read a CSV or JSON Lines file as the dataset</source>
        <translation>读取 CSV 或 JSON Lines 文件作为数据集</translation>
    </message>
    <message>
        <source>Demo data</source>
        <translation>演示数据</translation>
    </message>
    <message>
        <source>Use the demo transactions (5,000 card payments with a fraud label)</source>
        <translation>使用演示交易（5,000 笔带欺诈标签的银行卡支付）</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>Evaluate the current tab&apos;s rule set on the dataset</source>
        <translation>在数据集上评估当前标签页的规则集</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Compare the first tab (baseline) with every other tab (variants) on the dataset</source>
        <translation>在数据集上将第一个标签页（基线）与其他每个标签页（变体）进行比较</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel the running job</source>
        <translation>取消正在运行的任务</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Save the changed decisions of the shown variant as CSV</source>
        <translation>将所示变体的已变化决策另存为 CSV</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>导出报告…</translation>
    </message>
    <message>
        <source>Save the comparison as an HTML report with its charts</source>
        <translation>将比较结果连同图表另存为 HTML 报告</translation>
    </message>
    <message>
        <source>Import into store…</source>
        <translation>导入到存储…</translation>
    </message>
    <message>
        <source>Import a CSV or JSON Lines file into the store as an immutable snapshot, then use it</source>
        <translation>将 CSV 或 JSON Lines 文件作为不可变快照导入存储，然后使用它</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Stored snapshots</source>
        <translation>已存储的快照</translation>
    </message>
    <message>
        <source>Choose the records to evaluate on: the demo, a file, or a stored snapshot</source>
        <translation>选择要评估的记录：演示数据、文件或已存储的快照</translation>
    </message>
    <message>
        <source>No dataset</source>
        <translation>无数据集</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Changed decisions</source>
        <translation>已变化的决策</translation>
    </message>
    <message>
        <source>Filter: record, decision or rule</source>
        <translation>筛选：记录、决策或规则</translation>
    </message>
    <message>
        <source>Variant:</source>
        <translation>变体：</translation>
    </message>
    <message>
        <source>Select a record to see why it got its decisions</source>
        <translation>选择一条记录以查看其为何得到这些决策</translation>
    </message>
    <message>
        <source>Reading data…</source>
        <translation>正在读取数据…</translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <source>Evaluating…</source>
        <translation>正在评估…</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>Dataset: %1 — %2 records, %3 fields</source>
        <translation>数据集：%1 — %2 条记录，%3 个字段</translation>
    </message>
    <message>
        <source>, %1 bad rows skipped (first: line %2: %3)</source>
        <translation>，跳过了 %1 个错误行（第一个：第 %2 行：%3）</translation>
    </message>
    <message>
        <source>, %1 bad rows skipped (first: %4, line %2: %3)</source>
        <translation>，跳过了 %1 个错误行（第一个：%4 第 %2 行：%3）</translation>
    </message>
    <message>
        <source>Data read</source>
        <translation>数据已读取</translation>
    </message>
    <message>
        <source>(none yet: import a file)</source>
        <translation>（尚无：请导入文件）</translation>
    </message>
    <message>
        <source>Import dataset</source>
        <translation>导入数据集</translation>
    </message>
    <message>
        <source>Data (*.csv *.jsonl *.ndjson);;All files (*)</source>
        <translation>数据 (*.csv *.jsonl *.ndjson);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Name of the snapshot (letters, digits, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;):</source>
        <translation>快照名称（字母、数字、“_”、“-”、“.”）：</translation>
    </message>
    <message>
        <source>✔ No problems</source>
        <translation>✔ 没有问题</translation>
    </message>
    <message>
        <source>%1 error(s), %2 warning(s)</source>
        <translation>%1 个错误，%2 个警告</translation>
    </message>
    <message>
        <source>Open rule set</source>
        <translation>打开规则集</translation>
    </message>
    <message>
        <source>Rule sets (*.yaml *.yml);;All files (*)</source>
        <translation>规则集 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save rule set</source>
        <translation>保存规则集</translation>
    </message>
    <message>
        <source>Rule sets (*.yaml *.yml)</source>
        <translation>规则集 (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Open dataset</source>
        <translation>打开数据集</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2 records: %3 (%4 s)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，共 %2 条记录：%3（%4 秒）</translation>
    </message>
    <message>
        <source>Evaluated %1</source>
        <translation>已评估 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 changed (%3)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 条变化（%3）</translation>
    </message>
    <message>
        <source>Against &lt;b&gt;%1&lt;/b&gt; on %2 records — %3</source>
        <translation>相对 &lt;b&gt;%1&lt;/b&gt;，共 %2 条记录 — %3</translation>
    </message>
    <message numerus="yes">
        <source>Compared %n variant(s)</source>
        <translation>
            <numerusform>已比较 %n 个变体</numerusform>
        </translation>
    </message>
    <message>
        <source>the default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>&lt;h3&gt;%1: &lt;span style=&apos;color:#1f4e9e&apos;&gt;%2&lt;/span&gt; (score %3) by %4&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;%1：&lt;span style=&apos;color:#1f4e9e&apos;&gt;%2&lt;/span&gt;（分数 %3），由 %4 决定&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>matched</source>
        <translation>已匹配</translation>
    </message>
    <message>
        <source> — decided</source>
        <translation> — 已决策</translation>
    </message>
    <message>
        <source>No match: %1</source>
        <translation>不匹配：%1</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Record %1&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;记录 %1&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Export changed decisions</source>
        <translation>导出已变化的决策</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Sandbench rules report</source>
        <translation>Sandbench 规则报告</translation>
    </message>
    <message>
        <source>&lt;h1&gt;Rules report&lt;/h1&gt;&lt;p&gt;%1&lt;/p&gt;&lt;p&gt;Dataset: %2, %3 records.&lt;/p&gt;</source>
        <translation>&lt;h1&gt;规则报告&lt;/h1&gt;&lt;p&gt;%1&lt;/p&gt;&lt;p&gt;数据集：%2，%3 条记录。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Variants&lt;/h2&gt;&lt;table&gt;&lt;tr&gt;&lt;th&gt;Variant&lt;/th&gt;&lt;th&gt;Changed&lt;/th&gt;&lt;th&gt;Impact rate&lt;/th&gt;&lt;th&gt;Precision&lt;/th&gt;&lt;th&gt;Recall&lt;/th&gt;&lt;/tr&gt;</source>
        <translation>&lt;h2&gt;变体&lt;/h2&gt;&lt;table&gt;&lt;tr&gt;&lt;th&gt;变体&lt;/th&gt;&lt;th&gt;已变化&lt;/th&gt;&lt;th&gt;影响率&lt;/th&gt;&lt;th&gt;精确率&lt;/th&gt;&lt;th&gt;召回率&lt;/th&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Charts&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;图表&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Save the changed decisions as CSV, or the comparison as an HTML report</source>
        <translation>将已变化的决策另存为 CSV，或将比较结果另存为 HTML 报告</translation>
    </message>
    <message>
        <source>No rule set open</source>
        <translation>未打开规则集</translation>
    </message>
    <message>
        <source>Rule sets decide what happens to each record of a dataset. Open the demo to compare the current rule set with two variants on 5,000 card payments, or open your own rule sets (YAML): the first tab is the baseline, every other tab a variant compared with it.</source>
        <translation>规则集决定数据集中每条记录的处理方式。打开演示，可在 5,000 笔银行卡支付上将当前规则集与两个变体进行比较；或打开您自己的规则集（YAML）：第一个标签页为基线，其余每个标签页都是与之比较的变体。</translation>
    </message>
    <message>
        <source>Open the demo</source>
        <translation>打开演示</translation>
    </message>
    <message>
        <source>Open a rule set…</source>
        <translation>打开规则集…</translation>
    </message>
    <message>
        <source>Close this rule set</source>
        <translation>关闭此规则集</translation>
    </message>
    <message>
        <source>Close rule set</source>
        <translation>关闭规则集</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <source>The baseline: Compare measures every other tab against this rule set</source>
        <translation>基线：“比较”会以此规则集为准衡量其他每个标签页</translation>
    </message>
    <message>
        <source>%1: the baseline</source>
        <translation>%1：基线</translation>
    </message>
    <message>
        <source>%1: a variant, compared with the baseline</source>
        <translation>%1：变体，与基线比较</translation>
    </message>
</context>
<context>
    <name>sb::ui::RunHistoryModel</name>
    <message>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>snippet</source>
        <translation>代码片段</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Ran in a fresh private folder, in no sandbox</source>
        <translation>在新的私有文件夹中运行，不在任何沙箱中</translation>
    </message>
    <message>
        <source>Ran in sandbox %1&apos;s workspace</source>
        <translation>在沙箱 %1 的工作区中运行</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>沙箱</translation>
    </message>
</context>
<context>
    <name>sb::ui::SandboxListModel</name>
    <message>
        <source>archived</source>
        <translation>已归档</translation>
    </message>
    <message>
        <source>active</source>
        <translation>活动</translation>
    </message>
    <message>
        <source>%1, idle %2 of %3</source>
        <translation>%1，闲置 %2 / %3</translation>
    </message>
    <message>
        <source>%1, idle %2</source>
        <translation>%1，闲置 %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 (sample %2 of it: %3)</source>
        <translation>%1（其样本 %2：%3）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>preset %1</source>
        <translation>预设 %1</translation>
    </message>
    <message>
        <source>%1 · %2 · usage %3 · policy %4 · datasets %5</source>
        <translation>%1 · %2 · 用量 %3 · 策略 %4 · 数据集 %5</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>%1 后</translation>
    </message>
    <message>
        <source>(production)</source>
        <translation>（生产环境）</translation>
    </message>
    <message>
        <source>%1
Its workspace folder is removed until its next use, which writes its head checkpoint back.</source>
        <translation>%1
其工作区文件夹会被删除，直到下次使用时写回其头部检查点。</translation>
    </message>
    <message>
        <source>%1
workspace: %2
head: %3
owner: %4</source>
        <translation>%1
工作区：%2
头部：%3
所有者：%4</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>沙箱</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>过期时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>来源</translation>
    </message>
</context>
<context>
    <name>sb::ui::SandboxSettingsDialog</name>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Sandbox settings</source>
        <translation>沙箱设置</translation>
    </message>
    <message>
        <source>The most its workspace may hold: checkpoints, restores and runs are held to it</source>
        <translation>其工作区可容纳的上限：检查点、恢复和运行都受此限制</translation>
    </message>
    <message>
        <source>Governance of &lt;b&gt;%1&lt;/b&gt;. A change applies from now on and is recorded in the audit log.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 的治理设置。更改从现在起生效，并记录在审计日志中。</translation>
    </message>
    <message>
        <source>&amp;Quota:</source>
        <translation>配额(&amp;Q)：</translation>
    </message>
    <message>
        <source>Archive when i&amp;dle for:</source>
        <translation>闲置多久后归档(&amp;D)：</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionCompare</name>
    <message>
        <source>Compare agent sessions</source>
        <translation>比较智能体会话</translation>
    </message>
    <message>
        <source>%v/%m steps</source>
        <translation>%v/%m 个步骤</translation>
    </message>
    <message>
        <source>Cancel replay</source>
        <translation>取消重放</translation>
    </message>
    <message>
        <source>Stop the replay after the step it is on; it is recorded as interrupted</source>
        <translation>在当前步骤后停止重放；它会被记录为已中断</translation>
    </message>
    <message>
        <source>Stopping the replay after the step it is on…</source>
        <translation>正在当前步骤后停止重放…</translation>
    </message>
    <message>
        <source>▲ Previous difference</source>
        <translation>▲ 上一个差异</translation>
    </message>
    <message>
        <source>The previous step that differs (Shift+F3)</source>
        <translation>上一个不同的步骤（Shift+F3）</translation>
    </message>
    <message>
        <source>▼ Next difference</source>
        <translation>▼ 下一个差异</translation>
    </message>
    <message>
        <source>The next step that differs (F3)</source>
        <translation>下一个不同的步骤（F3）</translation>
    </message>
    <message>
        <source>Nothing compared yet</source>
        <translation>尚未比较</translation>
    </message>
    <message>
        <source>Replaying session %1 under %2…</source>
        <translation>正在 %2 下重放会话 %1…</translation>
    </message>
    <message>
        <source>Reading sessions %1 and %2…</source>
        <translation>正在读取会话 %1 和 %2…</translation>
    </message>
    <message>
        <source>Replay under a policy</source>
        <translation>在策略下重放</translation>
    </message>
    <message>
        <source>Original: %1</source>
        <translation>原会话：%1</translation>
    </message>
    <message>
        <source>Left: %1</source>
        <translation>左侧：%1</translation>
    </message>
    <message>
        <source>Replay: %1</source>
        <translation>重放：%1</translation>
    </message>
    <message>
        <source>Right: %1</source>
        <translation>右侧：%1</translation>
    </message>
    <message>
        <source>The replay failed: %1</source>
        <translation>重放失败：%1</translation>
    </message>
    <message>
        <source>Cannot compare the sessions: %1</source>
        <translation>无法比较会话：%1</translation>
    </message>
    <message>
        <source>Replay recorded as session %1 (sandbox %2).</source>
        <translation>重放已记录为会话 %1（沙箱 %2）。</translation>
    </message>
    <message>
        <source>Replay of session %1</source>
        <translation>会话 %1 的重放</translation>
    </message>
    <message>
        <source>%1 of %2 steps differ</source>
        <translation>%2 个步骤中有 %1 个不同</translation>
    </message>
    <message>
        <source>Select a step to see both sides in full.</source>
        <translation>选择一个步骤以完整查看两侧。</translation>
    </message>
    <message>
        <source>No difference after this step.</source>
        <translation>此步骤之后没有差异。</translation>
    </message>
    <message>
        <source>No difference before this step.</source>
        <translation>此步骤之前没有差异。</translation>
    </message>
    <message>
        <source>Cannot read step %1: %2</source>
        <translation>无法读取步骤 %1：%2</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionCompareModel</name>
    <message>
        <source>only on the left</source>
        <translation>仅在左侧</translation>
    </message>
    <message>
        <source>only on the right</source>
        <translation>仅在右侧</translation>
    </message>
    <message>
        <source>another call</source>
        <translation>另一个调用</translation>
    </message>
    <message>
        <source>verdict</source>
        <translation>裁决</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>now blocked</source>
        <translation>现被阻止</translation>
    </message>
    <message>
        <source>now needs approval</source>
        <translation>现需审批</translation>
    </message>
    <message>
        <source>now allowed</source>
        <translation>现被允许</translation>
    </message>
    <message>
        <source>ends the session</source>
        <translation>结束会话</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>未到达</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>Step %1 differs: %2</source>
        <translation>步骤 %1 不同：%2</translation>
    </message>
    <message>
        <source>No such step in this session</source>
        <translation>此会话中没有该步骤</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation>%1
%2</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>裁决</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionControlBar</name>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Let the waiting call go on and pause before the next one</source>
        <translation>放行正在等待的调用，并在下一个调用前暂停</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Let the waiting call go on and stop pausing (breakpoints still hold)</source>
        <translation>放行正在等待的调用，并不再暂停（断点仍然有效）</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Pause before the agent&apos;s next call</source>
        <translation>在智能体的下一个调用前暂停</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>Let the call waiting for approval go on</source>
        <translation>放行正在等待审批的调用</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Refuse the waiting call: the agent gets an error</source>
        <translation>拒绝正在等待的调用：智能体会收到错误</translation>
    </message>
    <message>
        <source>Edit arguments…</source>
        <translation>编辑参数…</translation>
    </message>
    <message>
        <source>Go on with the waiting call with other arguments (recorded as edited)</source>
        <translation>以其他参数继续正在等待的调用（记录为已编辑）</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Pause before calls of this tool, or calls this CEL condition holds for</source>
        <translation>在调用此工具前暂停，或在此 CEL 条件成立的调用前暂停</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Remove every breakpoint</source>
        <translation>删除所有断点</translation>
    </message>
    <message>
        <source>Break on a tool (name or glob) or a CEL condition</source>
        <translation>在某个工具（名称或通配模式）或 CEL 条件处中断</translation>
    </message>
    <message>
        <source>A tool such as run_command or write_*, or a CEL condition over tool, args, step and workspace, e.g. args.path.endsWith(&quot;.py&quot;)</source>
        <translation>工具名称，如 run_command 或 write_*，或关于 tool、args、step 和 workspace 的 CEL 条件，例如 args.path.endsWith(&quot;.py&quot;)</translation>
    </message>
    <message>
        <source>Asking the session for its state…</source>
        <translation>正在查询会话状态…</translation>
    </message>
    <message>
        <source>The session is not running: nothing to control.</source>
        <translation>会话未在运行：没有可控制的内容。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>%1: step %2</source>
        <translation>%1：步骤 %2</translation>
    </message>
    <message>
        <source>%1: done</source>
        <translation>%1：完成</translation>
    </message>
    <message>
        <source>waits for approval</source>
        <translation>等待审批</translation>
    </message>
    <message>
        <source>breakpoint</source>
        <translation>断点</translation>
    </message>
    <message>
        <source>step mode</source>
        <translation>单步模式</translation>
    </message>
    <message>
        <source>&lt;b&gt;Paused before step %1&lt;/b&gt;: &lt;code&gt;%2&lt;/code&gt; — %3</source>
        <translation>&lt;b&gt;已在步骤 %1 前暂停&lt;/b&gt;：&lt;code&gt;%2&lt;/code&gt; — %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Running&lt;/b&gt; — pauses before the next call</source>
        <translation>&lt;b&gt;运行中&lt;/b&gt; — 在下一个调用前暂停</translation>
    </message>
    <message>
        <source>&lt;b&gt;Running&lt;/b&gt;</source>
        <translation>&lt;b&gt;运行中&lt;/b&gt;</translation>
    </message>
    <message>
        <source>No breakpoints</source>
        <translation>无断点</translation>
    </message>
    <message>
        <source>Breaks on: %1</source>
        <translation>中断条件：%1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Breakpoint: %1</source>
        <translation>断点：%1</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionJobRunner</name>
    <message>
        <source>The session has no step %1.</source>
        <translation>该会话没有步骤 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot export to %1: %2</source>
        <translation>无法导出到 %1：%2</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionListModel</name>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>开销</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>sb::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Empty: --store, $SANDBENCH_STORE or the default location</source>
        <translation>留空：--store、$SANDBENCH_STORE 或默认位置</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>None: the toolbar&apos;s isolation level and limits</source>
        <translation>无：使用工具栏的隔离级别和限制</translation>
    </message>
    <message>
        <source>A built-in preset, or a policy file; the toolbar&apos;s level and limits apply on top</source>
        <translation>内置预设或策略文件；工具栏的级别和限制会叠加生效</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
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
        <source>&amp;Store:</source>
        <translation>存储(&amp;S)：</translation>
    </message>
    <message>
        <source>Takes effect when Sandbench starts next. --store and $SANDBENCH_STORE come first.</source>
        <translation>下次启动 Sandbench 时生效。--store 和 $SANDBENCH_STORE 优先。</translation>
    </message>
    <message>
        <source>Default &amp;policy:</source>
        <translation>默认策略(&amp;P)：</translation>
    </message>
    <message>
        <source>The policy of the snippets you run (not of the demo); the toolbar&apos;s isolation level and limits apply on top.</source>
        <translation>您运行的代码片段所用的策略（不包括演示）；工具栏的隔离级别和限制会叠加生效。</translation>
    </message>
    <message>
        <source>Editor &amp;font:</source>
        <translation>编辑器字体(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>Takes effect when Sandbench starts next.</source>
        <translation>下次启动 Sandbench 时生效。</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>Sandbench stores (*.db);;All files (*)</source>
        <translation>Sandbench 存储 (*.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Default policy</source>
        <translation>默认策略</translation>
    </message>
    <message>
        <source>Policies (*.yaml *.yml);;All files (*)</source>
        <translation>策略 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>This policy cannot rule a run: %1</source>
        <translation>此策略无法用于运行：%1</translation>
    </message>
</context>
<context>
    <name>sb::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
</context>
<context>
    <name>sb::ui::Snippets</name>
    <message>
        <source># Welcome to Sandbench: this snippet runs in an OS sandbox.
# Press Ctrl+Return to run it, or try the Demo to see every outcome.
</source>
        <translation># 欢迎使用 Sandbench：此代码片段在操作系统沙箱中运行。
# 按 Ctrl+Return 运行它，或试试“演示”来查看所有结果。
</translation>
    </message>
    <message>
        <source># The policy refuses risky modules; uncomment to see a blocked run:
</source>
        <translation># 策略会拒绝有风险的模块；取消下一行的注释即可看到被阻止的运行：
</translation>
    </message>
</context>
<context>
    <name>sb::ui::StepDetails</name>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Workspace diff</source>
        <translation>工作区差异</translation>
    </message>
    <message>
        <source>Raw frames</source>
        <translation>原始帧</translation>
    </message>
    <message>
        <source>Select a step to see its details.</source>
        <translation>选择一个步骤以查看其详细信息。</translation>
    </message>
    <message>
        <source>Cannot read step %1: %2</source>
        <translation>无法读取步骤 %1：%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt; · &lt;code&gt;%2&lt;/code&gt; · &lt;span style=&apos;background:%3; color:white; padding:1px 4px&apos;&gt;&amp;nbsp;%4&amp;nbsp;&lt;/span&gt;</source>
        <translation>&lt;b&gt;步骤 %1&lt;/b&gt; · &lt;code&gt;%2&lt;/code&gt; · &lt;span style=&apos;background:%3; color:white; padding:1px 4px&apos;&gt;&amp;nbsp;%4&amp;nbsp;&lt;/span&gt;</translation>
    </message>
    <message>
        <source> · arguments edited by a person</source>
        <translation> · 参数已由人工编辑</translation>
    </message>
    <message>
        <source>Decided by: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>决定者：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>the policy&apos;s default</source>
        <translation>策略的默认规则</translation>
    </message>
    <message>
        <source>Duration %1 · cost %2 · so far %3</source>
        <translation>时长 %1 · 开销 %2 · 累计 %3</translation>
    </message>
    <message>
        <source> of max_cost %1</source>
        <translation>（max_cost 为 %1）</translation>
    </message>
    <message>
        <source>Checkpoints: before %1, after %2</source>
        <translation>检查点：之前 %1，之后 %2</translation>
    </message>
    <message>
        <source>Reasoning: &lt;i&gt;%1&lt;/i&gt;</source>
        <translation>推理：&lt;i&gt;%1&lt;/i&gt;</translation>
    </message>
    <message>
        <source>→ request
%1

← response
%2</source>
        <translation>→ 请求
%1

← 响应
%2</translation>
    </message>
    <message>
        <source>

Arguments as the agent sent them (before a person edited them):
%1</source>
        <translation>

智能体发送的原始参数（人工编辑之前）：
%1</translation>
    </message>
    <message>
        <source>No workspace diff: %1</source>
        <translation>无工作区差异：%1</translation>
    </message>
    <message>
        <source>No checkpoint was taken after this step began: what it changed in the workspace is not recorded.</source>
        <translation>此步骤开始后未创建检查点：其对工作区所做的更改未被记录。</translation>
    </message>
    <message>
        <source>No checkpoint records a change of the workspace by this step (before and after it: %1).</source>
        <translation>没有检查点记录此步骤对工作区的更改（其前后：%1）。</translation>
    </message>
    <message>
        <source>Comparing %1 → %2…</source>
        <translation>正在比较 %1 → %2…</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation>无法比较：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 → %2: %n changed path(s) (%3 added, %4 modified, %5 removed)</source>
        <translation>
            <numerusform>%1 → %2：%n 个已更改的路径（新增 %3，修改 %4，删除 %5）</numerusform>
        </translation>
    </message>
    <message>
        <source>No differences: the checkpoints around this step hold the same files.</source>
        <translation>无差异：此步骤前后的检查点包含相同的文件。</translation>
    </message>
    <message>
        <source>Select a changed path to see its diff.</source>
        <translation>选择一个已更改的路径以查看其差异。</translation>
    </message>
    <message>
        <source>Binary file differs</source>
        <translation>二进制文件不同</translation>
    </message>
    <message>
        <source>Too large for a line diff</source>
        <translation>过大，无法逐行比较</translation>
    </message>
    <message>
        <source>No text differences (a folder, a link, permissions or an empty file).</source>
        <translation>无文本差异（文件夹、链接、权限或空文件）。</translation>
    </message>
</context>
<context>
    <name>sb::ui::StepListModel</name>
    <message>
        <source>in flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source> · error</source>
        <translation> · 错误</translation>
    </message>
    <message>
        <source> · edited</source>
        <translation> · 已编辑</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>裁决</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>开销</translation>
    </message>
</context>
<context>
    <name>sb::ui::Units</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>%1 KB</source>
        <translation>%1 KB</translation>
    </message>
</context>
<context>
    <name>sb::ui::WorkspaceModes</name>
    <message>
        <source>Workspaces</source>
        <translation>工作区</translation>
    </message>
</context>
</TS>
