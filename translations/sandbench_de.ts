<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>DemoStore</name>
    <message>
        <source>cannot make %1 private to its owner</source>
        <translation>%1 kann nicht nur für seinen Besitzer zugänglich gemacht werden</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Demo transactions</source>
        <translation>Demo-Transaktionen</translation>
    </message>
    <message>
        <source>%1: not a .csv, .jsonl or .ndjson file</source>
        <translation>%1: keine .csv-, .jsonl- oder .ndjson-Datei</translation>
    </message>
    <message>
        <source>stored %1</source>
        <translation>gespeichert: %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid dataset name (letters, digits, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;)</source>
        <translation>„%1“ ist kein gültiger Datensatzname (Buchstaben, Ziffern, „_“, „-“, „.“)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>(Vorgabe)</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2 · %3 · %n step(s)</source>
        <translation>
            <numerusform>%1 · %2 · %3 · %n Schritt</numerusform>
            <numerusform>%1 · %2 · %3 · %n Schritte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>session %1 · %2 · policy %3 · %n step(s)</source>
        <translation>
            <numerusform>Sitzung %1 · %2 · Richtlinie %3 · %n Schritt</numerusform>
            <numerusform>Sitzung %1 · %2 · Richtlinie %3 · %n Schritte</numerusform>
        </translation>
    </message>
    <message>
        <source>No such step in this session.</source>
        <translation>Diesen Schritt gibt es in dieser Sitzung nicht.</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>
rule: %1</source>
        <translation>
Regel: %1</translation>
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
Argumente von einer Person bearbeitet</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>stored %1 of sandbox %2</source>
        <translation>gespeichert: %1 der Sandbox %2</translation>
    </message>
    <message>
        <source>the worked example: its files</source>
        <translation>das mitgelieferte Beispiel: seine Dateien</translation>
    </message>
    <message>
        <source>the worked example: its sandboxes</source>
        <translation>das mitgelieferte Beispiel: seine Sandboxes</translation>
    </message>
    <message>
        <source>the worked example: the agent&apos;s session</source>
        <translation>das mitgelieferte Beispiel: die Sitzung des Agenten</translation>
    </message>
    <message>
        <source>no store to record its session in (%1)</source>
        <translation>keine Ablage, in der seine Sitzung aufgezeichnet werden kann (%1)</translation>
    </message>
    <message>
        <source>none is open</source>
        <translation>keine ist geöffnet</translation>
    </message>
    <message>
        <source>Worked example: could not run: %1</source>
        <translation>Mitgeliefertes Beispiel: Ausführung nicht möglich: %1</translation>
    </message>
    <message numerus="yes">
        <source>Worked example: agent session %1 %2, %n step(s) in sandbox %3</source>
        <translation>
            <numerusform>Mitgeliefertes Beispiel: Agent-Sitzung %1 (%2), %n Schritt in Sandbox %3</numerusform>
            <numerusform>Mitgeliefertes Beispiel: Agent-Sitzung %1 (%2), %n Schritte in Sandbox %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>checkpoint progress</name>
    <message>
        <source>writing</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>scanning</source>
        <translation>Durchsuchen</translation>
    </message>
    <message>
        <source>diffing</source>
        <translation>Vergleichen</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Sandbench</source>
        <translation>Sandbench</translation>
    </message>
    <message>
        <source>Run code you do not trust in an OS sandbox.</source>
        <translation>Nicht vertrauenswürdigen Code in einer Betriebssystem-Sandbox ausführen.</translation>
    </message>
    <message>
        <source>The store file to use (default: $SANDBENCH_STORE or the user&apos;s data folder).</source>
        <translation>Die zu verwendende Ablagedatei (Vorgabe: $SANDBENCH_STORE oder der Datenordner des Benutzers).</translation>
    </message>
    <message>
        <source>PATH</source>
        <translation>PFAD</translation>
    </message>
    <message>
        <source>Store unavailable</source>
        <translation>Ablage nicht verfügbar</translation>
    </message>
    <message>
        <source>The store could not be opened:
%1

%2</source>
        <translation>Die Ablage konnte nicht geöffnet werden:
%1

%2</translation>
    </message>
    <message>
        <source>You can still edit and run snippets; runs are not recorded and the file is left untouched.</source>
        <translation>Sie können weiterhin Snippets bearbeiten und ausführen; Ausführungen werden nicht aufgezeichnet, und die Datei bleibt unverändert.</translation>
    </message>
    <message>
        <source>Open a new demo store, for training: snippets of every outcome, the rules demo, an agent session, sandboxes with checkpoints, and Play demo. It lives in a private temporary folder removed when the window closes; your own store is not touched.</source>
        <translation>Öffnet eine neue Demo-Ablage für Schulungen: Snippets mit jedem Ergebnis, die Regel-Demo, eine Agent-Sitzung, Sandboxes mit Checkpoints und die geführte Demo. Sie liegt in einem privaten temporären Ordner, der beim Schließen des Fensters entfernt wird; Ihre eigene Ablage bleibt unberührt.</translation>
    </message>
    <message>
        <source>%1: --demo opens a new demo store of its own and cannot be used with --store.
</source>
        <translation>%1: --demo öffnet eine eigene neue Demo-Ablage und kann nicht mit --store verwendet werden.
</translation>
    </message>
    <message>
        <source>%1: the demo store could not be made: %2
</source>
        <translation>%1: Die Demo-Ablage konnte nicht angelegt werden: %2
</translation>
    </message>
</context>
<context>
    <name>promotion risk</name>
    <message>
        <source>binary file {} (added, {} bytes): it cannot be reviewed as text</source>
        <translation>Binärdatei {} (hinzugefügt, {} Bytes): sie lässt sich nicht als Text prüfen</translation>
    </message>
    <message>
        <source>binary file {} (changed, {} bytes): it cannot be reviewed as text</source>
        <translation>Binärdatei {} (geändert, {} Bytes): sie lässt sich nicht als Text prüfen</translation>
    </message>
    <message>
        <source>{} binary files added or changed, e.g. {} (added, {} bytes): they cannot be reviewed as text</source>
        <translation>{} Binärdateien hinzugefügt oder geändert, z. B. {} (hinzugefügt, {} Bytes): sie lassen sich nicht als Text prüfen</translation>
    </message>
    <message>
        <source>{} binary files added or changed, e.g. {} (changed, {} bytes): they cannot be reviewed as text</source>
        <translation>{} Binärdateien hinzugefügt oder geändert, z. B. {} (geändert, {} Bytes): sie lassen sich nicht als Text prüfen</translation>
    </message>
    <message>
        <source>{} files changed (more than {})</source>
        <translation>{} Dateien geändert (mehr als {})</translation>
    </message>
    <message>
        <source>{} files removed (more than {})</source>
        <translation>{} Dateien entfernt (mehr als {})</translation>
    </message>
    <message>
        <source>{} lines changed (more than {})</source>
        <translation>{} Zeilen geändert (mehr als {})</translation>
    </message>
    <message>
        <source>{} bytes changed (more than {})</source>
        <translation>{} Bytes geändert (mehr als {})</translation>
    </message>
    <message>
        <source>policy file {} changed</source>
        <translation>Richtliniendatei {} geändert</translation>
    </message>
    <message>
        <source>{} changed (a watched path)</source>
        <translation>{} geändert (ein überwachter Pfad)</translation>
    </message>
    <message>
        <source>rule set {} is new: production decides by it from now on, and there is no current version to measure its impact against</source>
        <translation>Regelsatz {} ist neu: die Produktion entscheidet ab jetzt danach, und es gibt keine aktuelle Version, an der sich seine Auswirkung messen lässt</translation>
    </message>
    <message>
        <source>rule set {} changed; its impact is not measured (no dataset: name one with --data, or refer the sandbox to one)</source>
        <translation>Regelsatz {} geändert; seine Auswirkung ist nicht gemessen (kein Datensatz: einen mit --data angeben oder die Sandbox auf einen verweisen)</translation>
    </message>
    <message>
        <source>rule set {} changed; its impact cannot be measured: it does not compile against {}</source>
        <translation>Regelsatz {} geändert; seine Auswirkung lässt sich nicht messen: er kompiliert nicht gegen {}</translation>
    </message>
    <message>
        <source>rule set {} changes the decision of {} of {} records in {} (impact rate {} %)</source>
        <translation>Regelsatz {} ändert die Entscheidung von {} von {} Datensätzen in {} (Auswirkungsrate {} %)</translation>
    </message>
    <message>
        <source>rule set {} changes the decision of {} of {} records in {} (impact rate {} %, above the high threshold of {} %)</source>
        <translation>Regelsatz {} ändert die Entscheidung von {} von {} Datensätzen in {} (Auswirkungsrate {} %, über der hohen Schwelle von {} %)</translation>
    </message>
    <message>
        <source>rule set {} changes the decision of {} of {} records in {} (impact rate {} %, above the medium threshold of {} %)</source>
        <translation>Regelsatz {} ändert die Entscheidung von {} von {} Datensätzen in {} (Auswirkungsrate {} %, über der mittleren Schwelle von {} %)</translation>
    </message>
</context>
<context>
    <name>run outcome</name>
    <message>
        <source>ran at level &apos;{}&apos;: &apos;{}&apos; is not available here and the policy allows a lower level</source>
        <translation>auf Stufe „{}“ ausgeführt: „{}“ ist hier nicht verfügbar und die Richtlinie erlaubt eine niedrigere Stufe</translation>
    </message>
    <message>
        <source>a syscall rule of the policy ended the run</source>
        <translation>eine Systemaufruf-Regel der Richtlinie hat die Ausführung beendet</translation>
    </message>
    <message>
        <source>the policy ends the run on {}</source>
        <translation>die Richtlinie beendet die Ausführung bei {}</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>wall-clock limit of {} ms reached; every process of the run was killed</source>
        <translation>Zeitlimit von {} ms erreicht; jeder Prozess der Ausführung wurde beendet</translation>
    </message>
    <message>
        <source>CPU time limit of {} ms reached</source>
        <translation>CPU-Zeitlimit von {} ms erreicht</translation>
    </message>
    <message>
        <source>memory limit of {} MiB reached</source>
        <translation>Speicherlimit von {} MiB erreicht</translation>
    </message>
    <message>
        <source>disk quota of {} MiB reached: the run was ended</source>
        <translation>Plattenkontingent von {} MiB erreicht: die Ausführung wurde beendet</translation>
    </message>
    <message>
        <source>the policy refuses the snippet&apos;s import of &apos;{}&apos; (line {})</source>
        <translation>die Richtlinie verweigert den Import von „{}“ im Snippet (Zeile {})</translation>
    </message>
    <message>
        <source>the policy refused {} {}</source>
        <translation>die Richtlinie hat {} {} verweigert</translation>
    </message>
    <message>
        <source>killed by signal {} ({})</source>
        <translation>durch Signal {} ({}) beendet</translation>
    </message>
    <message>
        <source>exited with status {}</source>
        <translation>mit Status {} beendet</translation>
    </message>
    <message>
        <source>memory limit of {} MiB reached: a process of the run asked for {} MiB more address space with {} MiB mapped already</source>
        <translation>Speicherlimit von {} MiB erreicht: ein Prozess des Laufs verlangte {} MiB mehr Adressraum bei bereits {} MiB belegtem Adressraum</translation>
    </message>
    <message>
        <source>memory limit of {} MiB reached: the kernel ended a process of the run</source>
        <translation>Speicherlimit von {} MiB erreicht: der Kernel hat einen Prozess des Laufs beendet</translation>
    </message>
    <message>
        <source>CPU time limit of {} ms reached: the run used {} ms of CPU time in all</source>
        <translation>CPU-Zeitlimit von {} ms erreicht: der Lauf hat insgesamt {} ms CPU-Zeit verbraucht</translation>
    </message>
    <message>
        <source>CPU time limit of {} ms reached: the run&apos;s processes used {} ms of CPU time in all</source>
        <translation>CPU-Zeitlimit von {} ms erreicht: die Prozesse des Laufs haben insgesamt {} ms CPU-Zeit verbraucht</translation>
    </message>
    <message>
        <source>memory limit of {} MiB reached: the run&apos;s {} processes held {} MiB of memory together</source>
        <translation>Speicherlimit von {} MiB erreicht: die {} Prozesse des Laufs belegten zusammen {} MiB Speicher</translation>
    </message>
</context>
<context>
    <name>sb::ui</name>
    <message>
        <source>category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>series</source>
        <translation>Reihe</translation>
    </message>
    <message>
        <source>time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Save chart as PNG…</source>
        <translation>Diagramm als PNG speichern…</translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation>Diagramm speichern</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Save data as CSV…</source>
        <translation>Daten als CSV speichern…</translation>
    </message>
    <message>
        <source>Save chart data</source>
        <translation>Diagrammdaten speichern</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>Last day</source>
        <translation>Letzter Tag</translation>
    </message>
    <message>
        <source>Last week</source>
        <translation>Letzte Woche</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>Gesamter Zeitraum</translation>
    </message>
    <message>
        <source>minute</source>
        <translation>Minute</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>hour</source>
        <translation>Stunde</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 Stunden</translation>
    </message>
    <message>
        <source>day</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
</context>
<context>
    <name>sb::ui::ActivityCharts</name>
    <message>
        <source>Blocked events by kind</source>
        <translation>Blockierte Ereignisse nach Art</translation>
    </message>
    <message>
        <source>Most blocked targets</source>
        <translation>Am häufigsten blockierte Ziele</translation>
    </message>
    <message>
        <source>Agent steps by verdict</source>
        <translation>Agent-Schritte nach Urteil</translation>
    </message>
    <message>
        <source>Recent promotions</source>
        <translation>Letzte Übernahmen</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Zeitpunkt</translation>
    </message>
    <message>
        <source>Promotion</source>
        <translation>Übernahme</translation>
    </message>
    <message>
        <source>Risk</source>
        <translation>Risiko</translation>
    </message>
    <message>
        <source>Approved by</source>
        <translation>Freigegeben von</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>No promotion in this span of time. Promote a sandbox from Checkpoints.</source>
        <translation>Keine Übernahme in diesem Zeitraum. Übernehmen Sie eine Sandbox unter „Checkpoints“.</translation>
    </message>
    <message>
        <source>Save as CSV…</source>
        <translation>Als CSV speichern…</translation>
    </message>
    <message>
        <source>Save promotions</source>
        <translation>Übernahmen speichern</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Hover a bar for its count; right-click to save the chart or its data</source>
        <translation>Zeigen Sie auf einen Balken, um seine Anzahl zu sehen; ein Rechtsklick speichert das Diagramm oder seine Daten</translation>
    </message>
    <message>
        <source>%1: %2 (%3 % of %4)</source>
        <translation>%1: %2 (%3 % von %4)</translation>
    </message>
    <message>
        <source>Blocked events by kind: none</source>
        <translation>Blockierte Ereignisse nach Art: keine</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Blocked events</source>
        <translation>Blockierte Ereignisse</translation>
    </message>
    <message>
        <source>%1 — %2: %3</source>
        <translation>%1 — %2: %3</translation>
    </message>
    <message>
        <source>Most blocked targets: none</source>
        <translation>Am häufigsten blockierte Ziele: keine</translation>
    </message>
    <message>
        <source>Most blocked targets (%1 more elsewhere)</source>
        <translation>Am häufigsten blockierte Ziele (%1 weitere anderswo)</translation>
    </message>
    <message>
        <source>Blocked target</source>
        <translation>Blockiertes Ziel</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>%1 of a verdict this version does not know (%2 % of %3)</source>
        <translation>%1 mit einem Urteil, das diese Version nicht kennt (%2 % von %3)</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>Agent steps</source>
        <translation>Agent-Schritte</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>(unbekannt)</translation>
    </message>
    <message>
        <source>%1 by %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Sandbox %1 promoted into %2; checkpoint %3</source>
        <translation>Sandbox %1 nach %2 übernommen; Checkpoint %3</translation>
    </message>
    <message>
        <source>(not recorded)</source>
        <translation>(nicht erfasst)</translation>
    </message>
    <message>
        <source>no approval</source>
        <translation>keine Freigabe</translation>
    </message>
    <message>
        <source>Promoted without an approval</source>
        <translation>Ohne Freigabe übernommen</translation>
    </message>
    <message>
        <source>Approved by %1: %2</source>
        <translation>Freigegeben von %1: %2</translation>
    </message>
    <message>
        <source>applied after a crash</source>
        <translation>nach einem Absturz angewendet</translation>
    </message>
    <message>
        <source>applied</source>
        <translation>angewendet</translation>
    </message>
</context>
<context>
    <name>sb::ui::AgentLaunchJob</name>
    <message>
        <source>the launch ended without an outcome</source>
        <translation>der Start endete ohne Ergebnis</translation>
    </message>
    <message>
        <source>the store is not open</source>
        <translation>die Ablage ist nicht geöffnet</translation>
    </message>
</context>
<context>
    <name>sb::ui::AgentLauncher</name>
    <message>
        <source>Launch agent…</source>
        <translation>Agent starten…</translation>
    </message>
    <message>
        <source>Stop agent</source>
        <translation>Agent beenden</translation>
    </message>
    <message>
        <source>Run an agent (the worked example, or any command) with a policy and a sandbox; its session shows here live</source>
        <translation>Einen Agenten (das mitgelieferte Beispiel oder einen beliebigen Befehl) mit einer Richtlinie und einer Sandbox ausführen; seine Sitzung erscheint hier live</translation>
    </message>
    <message>
        <source>End the launched session: the call waiting is refused and the agent stopped</source>
        <translation>Die gestartete Sitzung beenden: Der wartende Aufruf wird abgelehnt und der Agent beendet</translation>
    </message>
    <message>
        <source>the worked example</source>
        <translation>das mitgelieferte Beispiel</translation>
    </message>
    <message>
        <source>Launching %1…</source>
        <translation>Wird gestartet: %1…</translation>
    </message>
    <message>
        <source>Stopping %1…</source>
        <translation>Wird beendet: %1…</translation>
    </message>
    <message>
        <source>Session %1 of %2 runs.</source>
        <translation>Sitzung %1 läuft: %2.</translation>
    </message>
    <message>
        <source>Launch of %1 refused: %2</source>
        <translation>Start abgelehnt (%1): %2</translation>
    </message>
    <message numerus="yes">
        <source>Session %1 of %2 %3, %n step(s)</source>
        <translation>
            <numerusform>Sitzung %1 (%2): %3, %n Schritt</numerusform>
            <numerusform>Sitzung %1 (%2): %3, %n Schritte</numerusform>
        </translation>
    </message>
    <message>
        <source>The store is not open: a session has nowhere to be recorded</source>
        <translation>Die Ablage ist nicht geöffnet: Eine Sitzung kann nirgends aufgezeichnet werden</translation>
    </message>
    <message>
        <source>A launched session runs: stop it or let it end first</source>
        <translation>Eine gestartete Sitzung läuft: diese zuerst beenden oder zu Ende laufen lassen</translation>
    </message>
    <message>
        <source>The demo is recording the worked example: launch when it has ended</source>
        <translation>Die Demo zeichnet gerade das mitgelieferte Beispiel auf: starten Sie, wenn sie beendet ist</translation>
    </message>
</context>
<context>
    <name>sb::ui::AgentTimeline</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>Steps as bars on a time axis, coloured by verdict; checkpoints marked above, search matches below. Click a step to select it, Shift+drag to select a range; Ctrl+wheel or +/- zoom, drag, wheel or the arrow keys pan, 0 shows the whole session.</source>
        <translation>Schritte als Balken auf einer Zeitachse, nach Urteil eingefärbt; Checkpoints oben markiert, Suchtreffer unten. Ein Klick auf einen Schritt wählt ihn, Umschalt+Ziehen wählt einen Bereich; Strg+Mausrad oder +/- zoomen, Ziehen, Mausrad oder die Pfeiltasten verschieben, 0 zeigt die ganze Sitzung.</translation>
    </message>
    <message>
        <source>No steps to show</source>
        <translation>Keine Schritte anzuzeigen</translation>
    </message>
    <message>
        <source>, result is an error</source>
        <translation>, Ergebnis ist ein Fehler</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt; · %2&lt;br&gt;%3&lt;br&gt;%4 · cost %5 (so far %6)&lt;br&gt;&lt;code&gt;%7&lt;/code&gt;</source>
        <translation>&lt;b&gt;Schritt %1&lt;/b&gt; · %2&lt;br&gt;%3&lt;br&gt;%4 · Kosten %5 (bisher %6)&lt;br&gt;&lt;code&gt;%7&lt;/code&gt;</translation>
    </message>
</context>
<context>
    <name>sb::ui::AgentWorkspace</name>
    <message>
        <source>Search tools, arguments, results…</source>
        <translation>Tools, Argumente, Ergebnisse durchsuchen…</translation>
    </message>
    <message>
        <source>Steps whose tool, arguments, result, reasoning or message contain the text; Enter goes to the next</source>
        <translation>Schritte, deren Tool, Argumente, Ergebnis, Begründung oder Nachricht den Text enthalten; Eingabe springt zum nächsten</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>Vorheriger Treffer</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>Nächster Treffer</translation>
    </message>
    <message>
        <source>Zoom in on the timeline (+, Ctrl+wheel)</source>
        <translation>In die Zeitleiste hineinzoomen (+, Strg+Mausrad)</translation>
    </message>
    <message>
        <source>Zoom out (-)</source>
        <translation>Herauszoomen (-)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Show the whole session (0)</source>
        <translation>Die ganze Sitzung zeigen (0)</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Read the sessions again</source>
        <translation>Die Sitzungen neu lesen</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Write the session as JSON Lines, or as an HTML report for a reviewer</source>
        <translation>Die Sitzung als JSON Lines schreiben oder als HTML-Bericht zur Durchsicht</translation>
    </message>
    <message>
        <source>JSON Lines…</source>
        <translation>JSON Lines…</translation>
    </message>
    <message>
        <source>HTML report…</source>
        <translation>HTML-Bericht…</translation>
    </message>
    <message>
        <source>Cannot read the agent sessions: %1</source>
        <translation>Die Agent-Sitzungen können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Select a step to see its details.</source>
        <translation>Einen Schritt wählen, um seine Details zu sehen.</translation>
    </message>
    <message>
        <source>Cannot read the steps of session %1: %2</source>
        <translation>Die Schritte von Sitzung %1 können nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>Wird gesucht…</translation>
    </message>
    <message>
        <source>Search failed</source>
        <translation>Suche fehlgeschlagen</translation>
    </message>
    <message>
        <source>Cannot search: %1</source>
        <translation>Suche nicht möglich: %1</translation>
    </message>
    <message>
        <source>No match</source>
        <translation>Kein Treffer</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 Treffer</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 Treffer</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Export the session as an HTML report</source>
        <translation>Die Sitzung als HTML-Bericht exportieren</translation>
    </message>
    <message>
        <source>Export the session as JSON Lines</source>
        <translation>Die Sitzung als JSON Lines exportieren</translation>
    </message>
    <message>
        <source>HTML report (*.html)</source>
        <translation>HTML-Bericht (*.html)</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Exporting session %1…</source>
        <translation>Sitzung %1 wird exportiert…</translation>
    </message>
    <message>
        <source>Session exported to %1</source>
        <translation>Sitzung nach %1 exportiert</translation>
    </message>
    <message>
        <source>Fork a sandbox from before step %1…</source>
        <translation>Eine Sandbox vom Stand vor Schritt %1 abzweigen…</translation>
    </message>
    <message>
        <source>Rewind the sandbox to before step %1…</source>
        <translation>Die Sandbox auf den Stand vor Schritt %1 zurückspulen…</translation>
    </message>
    <message>
        <source>Not while the session runs: the agent is working in that sandbox</source>
        <translation>Nicht, solange die Sitzung läuft: Der Agent arbeitet in dieser Sandbox</translation>
    </message>
    <message>
        <source>Fork a sandbox</source>
        <translation>Sandbox abzweigen</translation>
    </message>
    <message>
        <source>A new sandbox whose workspace is the session&apos;s before step %1. Its name:</source>
        <translation>Eine neue Sandbox, deren Arbeitsbereich dem Stand der Sitzung vor Schritt %1 entspricht. Ihr Name:</translation>
    </message>
    <message>
        <source>Rewind the sandbox</source>
        <translation>Sandbox zurückspulen</translation>
    </message>
    <message>
        <source>Make the sandbox %1 as it was before step %2? Unsaved changes are checkpointed first: nothing is lost.</source>
        <translation>Die Sandbox %1 auf den Stand vor Schritt %2 zurückspulen? Ungesicherte Änderungen werden vorher als Checkpoint gesichert: Nichts geht verloren.</translation>
    </message>
    <message>
        <source>Forking %1 from before step %2…</source>
        <translation>%1 wird vom Stand vor Schritt %2 abgezweigt…</translation>
    </message>
    <message>
        <source>Rewinding to before step %1…</source>
        <translation>Wird auf den Stand vor Schritt %1 zurückgespult…</translation>
    </message>
    <message>
        <source>Cannot fork: %1</source>
        <translation>Abzweigen nicht möglich: %1</translation>
    </message>
    <message>
        <source>Cannot rewind: %1</source>
        <translation>Zurückspulen nicht möglich: %1</translation>
    </message>
    <message>
        <source>Sandbox %1 forked from before step %2 (checkpoint %3)</source>
        <translation>Sandbox %1 vom Stand vor Schritt %2 abgezweigt (Checkpoint %3)</translation>
    </message>
    <message>
        <source>Sandbox %1 rewound to before step %2 (checkpoint %3)</source>
        <translation>Sandbox %1 auf den Stand vor Schritt %2 zurückgespult (Checkpoint %3)</translation>
    </message>
    <message>
        <source>Select a session: each agent run or wrapped MCP server the store recorded.</source>
        <translation>Eine Sitzung wählen: jeder Agent-Lauf und jeder gekapselte MCP-Server, den die Ablage aufgezeichnet hat.</translation>
    </message>
    <message>
        <source>The store is not open.</source>
        <translation>Die Ablage ist nicht geöffnet.</translation>
    </message>
    <message>
        <source>%1 v%2</source>
        <translation>%1 v%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; session &lt;code&gt;%2&lt;/code&gt; · &lt;b&gt;%3&lt;/b&gt; · %4 steps · cost %5 · sandbox %6 · policy %7</source>
        <translation>Sitzung &lt;code&gt;%2&lt;/code&gt; (&lt;b&gt;%1&lt;/b&gt;) · &lt;b&gt;%3&lt;/b&gt; · %4 Schritte · Kosten %5 · Sandbox %6 · Richtlinie %7</translation>
    </message>
    <message>
        <source>Replay…</source>
        <translation>Erneut abspielen…</translation>
    </message>
    <message>
        <source>Replay the open session under another policy and compare it with the original</source>
        <translation>Die offene Sitzung unter einer anderen Richtlinie erneut abspielen und mit dem Original vergleichen</translation>
    </message>
    <message>
        <source>Replay under policy…</source>
        <translation>Unter Richtlinie erneut abspielen…</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>Vergleichen mit…</translation>
    </message>
    <message>
        <source>Session %1 on the left; on the right:</source>
        <translation>Sitzung %1 links; rechts:</translation>
    </message>
    <message>
        <source>Replay recorded as session %1</source>
        <translation>Wiederholung als Sitzung %1 aufgezeichnet</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditEntryPane</name>
    <message>
        <source>Open run</source>
        <translation>Ausführung öffnen</translation>
    </message>
    <message>
        <source>Open checkpoint</source>
        <translation>Checkpoint öffnen</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>Sitzung öffnen</translation>
    </message>
    <message>
        <source>Open sandbox</source>
        <translation>Sandbox öffnen</translation>
    </message>
    <message>
        <source>No entry selected</source>
        <translation>Kein Eintrag gewählt</translation>
    </message>
    <message>
        <source>Select an entry to see all its fields, its details and its hashes.</source>
        <translation>Wählen Sie einen Eintrag, um alle seine Felder, Details und Hashes zu sehen.</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Show %1 in the window</source>
        <translation>%1 im Fenster zeigen</translation>
    </message>
    <message>
        <source>This entry breaks the chain:</source>
        <translation>Dieser Eintrag bricht die Kette:</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Gegenstand</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Recorded subject</source>
        <translation>Aufgezeichneter Gegenstand</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Hash</source>
        <translation>Hash</translation>
    </message>
    <message>
        <source>Previous hash</source>
        <translation>Vorheriger Hash</translation>
    </message>
    <message>
        <source>MAC</source>
        <translation>MAC</translation>
    </message>
    <message>
        <source>none (written before the store had a key)</source>
        <translation>keiner (geschrieben, bevor die Ablage einen Schlüssel hatte)</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditLogModel</name>
    <message>
        <source>The chain breaks at this entry.</source>
        <translation>Hier bricht die Kette.</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Gegenstand</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>done</source>
        <translation>erledigt</translation>
    </message>
    <message>
        <source>entry %1
hash %2</source>
        <translation>Eintrag %1
Hash %2</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditView</name>
    <message>
        <source>&amp;Verify chain</source>
        <translation>Kette &amp;prüfen</translation>
    </message>
    <message>
        <source>Show one actor only</source>
        <translation>Nur einen Akteur zeigen</translation>
    </message>
    <message>
        <source>All actors</source>
        <translation>Alle Akteure</translation>
    </message>
    <message>
        <source>Filter: subject, details…</source>
        <translation>Filter: Gegenstand, Details…</translation>
    </message>
    <message>
        <source>Read the log again</source>
        <translation>Protokoll neu lesen</translation>
    </message>
    <message>
        <source>Walk the whole hash chain and name the first entry that was altered or removed</source>
        <translation>Die ganze Hash-Kette prüfen und den ersten veränderten oder entfernten Eintrag nennen</translation>
    </message>
    <message>
        <source>Stop verifying</source>
        <translation>Prüfung abbrechen</translation>
    </message>
    <message>
        <source>Not verified yet. Verify walks the whole hash chain and names the first entry that was altered or removed.</source>
        <translation>Noch nicht geprüft. „Kette prüfen“ geht die ganze Hash-Kette durch und nennt den ersten veränderten oder entfernten Eintrag.</translation>
    </message>
    <message>
        <source>The store is unavailable: there is no audit log to show.</source>
        <translation>Die Ablage ist nicht verfügbar: Es gibt kein Prüfprotokoll anzuzeigen.</translation>
    </message>
    <message>
        <source>New entries since the last verification. Verify again to cover them.</source>
        <translation>Neue Einträge seit der letzten Prüfung. Erneut prüfen, um sie einzuschließen.</translation>
    </message>
    <message>
        <source>Cannot read the log</source>
        <translation>Protokoll nicht lesbar</translation>
    </message>
    <message>
        <source>Latest entries: %L1</source>
        <translation>Neueste Einträge: %L1</translation>
    </message>
    <message>
        <source>Entries: %L1</source>
        <translation>Einträge: %L1</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>beginnt…</translation>
    </message>
    <message>
        <source>Verifying the hash chain…</source>
        <translation>Hash-Kette wird geprüft…</translation>
    </message>
    <message>
        <source>%L1 of %L2</source>
        <translation>%L1 von %L2</translation>
    </message>
    <message>
        <source>Cannot verify: %1</source>
        <translation>Prüfung nicht möglich: %1</translation>
    </message>
    <message>
        <source>The entry is not among the rows shown (removed, or hidden by a filter).</source>
        <translation>Der Eintrag ist nicht unter den gezeigten Zeilen (entfernt oder durch einen Filter ausgeblendet).</translation>
    </message>
    <message>
        <source>Show one action, or one family of actions (checkpoint.*)</source>
        <translation>Eine Aktion oder eine Familie von Aktionen (checkpoint.*) zeigen</translation>
    </message>
    <message>
        <source>All actions</source>
        <translation>Alle Aktionen</translation>
    </message>
    <message>
        <source>Show entries holding this text in their actor, action, subject or details</source>
        <translation>Einträge zeigen, deren Akteur, Aktion, Gegenstand oder Details diesen Text enthalten</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <source>Write the entries the filters match to a file</source>
        <translation>Die Einträge, auf die die Filter passen, in eine Datei schreiben</translation>
    </message>
    <message>
        <source>As &amp;CSV…</source>
        <translation>Als &amp;CSV…</translation>
    </message>
    <message>
        <source>As &amp;JSON Lines…</source>
        <translation>Als &amp;JSON Lines…</translation>
    </message>
    <message>
        <source>Stop exporting</source>
        <translation>Export abbrechen</translation>
    </message>
    <message>
        <source>Scroll down to read older entries</source>
        <translation>Nach unten blättern, um ältere Einträge zu lesen</translation>
    </message>
    <message>
        <source>exporting…</source>
        <translation>wird exportiert…</translation>
    </message>
    <message>
        <source>Export the audit log</source>
        <translation>Prüfprotokoll exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>JSON Lines files (*.jsonl)</source>
        <translation>JSON-Lines-Dateien (*.jsonl)</translation>
    </message>
    <message>
        <source>Export cancelled: no file was written</source>
        <translation>Export abgebrochen: Es wurde keine Datei geschrieben</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>Exported %L1 entries</source>
        <translation>%L1 Einträge exportiert</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>Cancelled after %L1 entries: nothing is known about the rest.</source>
        <translation>Nach %L1 Einträgen abgebrochen: Über den Rest ist nichts bekannt.</translation>
    </message>
    <message>
        <source>✔ Chain intact: the log is empty.</source>
        <translation>✔ Kette intakt: Das Protokoll ist leer.</translation>
    </message>
    <message>
        <source>✔ Chain intact: %L1 entries, head %2</source>
        <translation>✔ Kette intakt: %L1 Einträge, Head %2</translation>
    </message>
    <message>
        <source>Head: entry %1
%2</source>
        <translation>Head: Eintrag %1
%2</translation>
    </message>
    <message>
        <source>Not verified (%1): %2</source>
        <translation>Nicht geprüft (%1): %2</translation>
    </message>
    <message>
        <source>✘ Chain broken at entry %1 (%2): %3</source>
        <translation>✘ Kette gebrochen bei Eintrag %1 (%2): %3</translation>
    </message>
    <message>
        <source>✘ Chain broken (%1): %2</source>
        <translation>✘ Kette gebrochen (%1): %2</translation>
    </message>
    <message>
        <source>Refresh the audit log</source>
        <translation>Das Prüfprotokoll aktualisieren</translation>
    </message>
</context>
<context>
    <name>sb::ui::Autosave</name>
    <message>
        <source>Cannot make the folder of %1</source>
        <translation>Der Ordner von %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>sb::ui::ChangedDecisionsModel</name>
    <message>
        <source>Record</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <source>Current
decision</source>
        <translation>Aktuelle
Entscheidung</translation>
    </message>
    <message>
        <source>Proposed
decision</source>
        <translation>Vorgeschlagene
Entscheidung</translation>
    </message>
    <message>
        <source>Current
score</source>
        <translation>Aktueller
Score</translation>
    </message>
    <message>
        <source>Proposed
score</source>
        <translation>Vorgeschlagener
Score</translation>
    </message>
    <message>
        <source>Current
rule</source>
        <translation>Aktuelle
Regel</translation>
    </message>
    <message>
        <source>Proposed
rule</source>
        <translation>Vorgeschlagene
Regel</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointBrowser</name>
    <message>
        <source>Creating the sandbox…</source>
        <translation>Sandbox wird angelegt…</translation>
    </message>
    <message>
        <source>Destroying the sandbox…</source>
        <translation>Sandbox wird gelöscht…</translation>
    </message>
    <message>
        <source>Creating a checkpoint…</source>
        <translation>Checkpoint wird angelegt…</translation>
    </message>
    <message>
        <source>Restoring…</source>
        <translation>Wird wiederhergestellt…</translation>
    </message>
    <message>
        <source>Forking…</source>
        <translation>Wird abgezweigt…</translation>
    </message>
    <message>
        <source>Making the demo sandboxes…</source>
        <translation>Demo-Sandboxes werden angelegt…</translation>
    </message>
    <message>
        <source>Applying the sandbox&apos;s settings…</source>
        <translation>Die Einstellungen der Sandbox werden übernommen…</translation>
    </message>
    <message>
        <source>Cancel the running checkpoint operation or diff</source>
        <translation>Laufende Checkpoint-Operation oder den Vergleich abbrechen</translation>
    </message>
    <message>
        <source>Select a checkpoint to compare it with the live workspace; Ctrl-click a second one to compare the two</source>
        <translation>Einen Checkpoint wählen, um ihn mit dem aktuellen Arbeitsbereich zu vergleichen; mit Strg-Klick einen zweiten wählen, um die beiden zu vergleichen</translation>
    </message>
    <message>
        <source>The store is not open.</source>
        <translation>Die Ablage ist nicht geöffnet.</translation>
    </message>
    <message>
        <source>New sandbox…</source>
        <translation>Neue Sandbox…</translation>
    </message>
    <message>
        <source>Make a sandbox from main, a sandbox, the selected checkpoint or an imported folder</source>
        <translation>Eine Sandbox aus main, einer Sandbox, dem gewählten Checkpoint oder einem importierten Ordner anlegen</translation>
    </message>
    <message>
        <source>Destroy</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the selected sandbox, its workspace and its checkpoints</source>
        <translation>Die gewählte Sandbox, ihren Arbeitsbereich und ihre Checkpoints löschen</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <source>Open the sandbox&apos;s workspace folder in the file manager</source>
        <translation>Den Arbeitsbereich der Sandbox im Dateimanager öffnen</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Einstellungen…</translation>
    </message>
    <message>
        <source>Change the selected sandbox&apos;s size quota and idle timeout</source>
        <translation>Größenkontingent und Ruhezeit der gewählten Sandbox ändern</translation>
    </message>
    <message>
        <source>Checkpoint…</source>
        <translation>Checkpoint…</translation>
    </message>
    <message>
        <source>Snapshot the sandbox&apos;s workspace as it is now</source>
        <translation>Den Arbeitsbereich der Sandbox so festhalten, wie er jetzt ist</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>Wiederherstellen…</translation>
    </message>
    <message>
        <source>Make the workspace equal to the selected checkpoint (unsaved changes are checkpointed first)</source>
        <translation>Den Arbeitsbereich auf den gewählten Checkpoint zurücksetzen (ungesicherte Änderungen werden vorher als Checkpoint gesichert)</translation>
    </message>
    <message>
        <source>Fork…</source>
        <translation>Abzweigen…</translation>
    </message>
    <message>
        <source>A new sandbox whose workspace is the selected checkpoint</source>
        <translation>Eine neue Sandbox, deren Arbeitsbereich der gewählte Checkpoint ist</translation>
    </message>
    <message>
        <source>Sweep now</source>
        <translation>Jetzt aufräumen</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Read the sandboxes and checkpoints again and redo the diff</source>
        <translation>Sandboxes und Checkpoints neu lesen und den Vergleich wiederholen</translation>
    </message>
    <message>
        <source>The store is unavailable: there are no sandboxes to show.</source>
        <translation>Die Ablage ist nicht verfügbar: Es gibt keine Sandboxes anzuzeigen.</translation>
    </message>
    <message>
        <source>Cannot read the sandboxes: %1</source>
        <translation>Die Sandboxes können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Cannot read the checkpoints of %1: %2</source>
        <translation>Die Checkpoints von %1 können nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Only main so far. New sandbox… makes a world to experiment in; the Demo (Ctrl+Shift+D) also adds two demo sandboxes with a few checkpoints to explore.</source>
        <translation>Bisher nur main. „Neue Sandbox…“ legt eine Welt zum Experimentieren an; die Demo (Strg+Umschalt+D) fügt außerdem zwei Demo-Sandboxes mit einigen Checkpoints zum Erkunden hinzu.</translation>
    </message>
    <message>
        <source>Select a checkpoint to see how the live workspace differs from it; Ctrl-click a second checkpoint to compare the two.</source>
        <translation>Einen Checkpoint wählen, um zu sehen, wie der aktuelle Arbeitsbereich von ihm abweicht; mit Strg-Klick einen zweiten Checkpoint wählen, um die beiden zu vergleichen.</translation>
    </message>
    <message>
        <source>Select one checkpoint (compared with the live workspace) or two (compared with each other).</source>
        <translation>Einen Checkpoint wählen (Vergleich mit dem aktuellen Arbeitsbereich) oder zwei (Vergleich miteinander).</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>Wird verglichen…</translation>
    </message>
    <message>
        <source>comparing</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>Diff cancelled.</source>
        <translation>Vergleich abgebrochen.</translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation>Vergleich nicht möglich: %1</translation>
    </message>
    <message>
        <source>live workspace</source>
        <translation>aktueller Arbeitsbereich</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: %n changed path(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: %n geänderter Pfad</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: %n geänderte Pfade</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 added</source>
        <translation>%1 hinzugefügt</translation>
    </message>
    <message>
        <source>%1 modified</source>
        <translation>%1 geändert</translation>
    </message>
    <message>
        <source>%1 removed</source>
        <translation>%1 entfernt</translation>
    </message>
    <message>
        <source>Not compared (skipped by the walk): %1</source>
        <translation>Nicht verglichen (beim Durchlauf übersprungen): %1</translation>
    </message>
    <message>
        <source>No differences: the live workspace is exactly this checkpoint.</source>
        <translation>Keine Unterschiede: Der aktuelle Arbeitsbereich entspricht genau diesem Checkpoint.</translation>
    </message>
    <message>
        <source>No differences: both checkpoints hold the same files.</source>
        <translation>Keine Unterschiede: Beide Checkpoints enthalten dieselben Dateien.</translation>
    </message>
    <message>
        <source>Select a changed path to see its diff.</source>
        <translation>Einen geänderten Pfad wählen, um seinen Unterschied zu sehen.</translation>
    </message>
    <message>
        <source>Binary file differs</source>
        <translation>Binärdatei unterscheidet sich</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Binary file added (%1)</source>
        <translation>Binärdatei hinzugefügt (%1)</translation>
    </message>
    <message>
        <source>Binary file removed (%1)</source>
        <translation>Binärdatei entfernt (%1)</translation>
    </message>
    <message>
        <source>Too large for a line diff (%1)</source>
        <translation>Zu groß für einen zeilenweisen Vergleich (%1)</translation>
    </message>
    <message>
        <source>Folder permissions changed</source>
        <translation>Ordnerrechte geändert</translation>
    </message>
    <message>
        <source>Empty folder</source>
        <translation>Leerer Ordner</translation>
    </message>
    <message>
        <source>Symbolic link → %1</source>
        <translation>Symbolischer Link → %1</translation>
    </message>
    <message>
        <source>Permissions changed: %1 → %2</source>
        <translation>Rechte geändert: %1 → %2</translation>
    </message>
    <message>
        <source>No text differences (an empty file).</source>
        <translation>Keine Textunterschiede (eine leere Datei).</translation>
    </message>
    <message>
        <source>Comparing: %1</source>
        <translation>Vergleich: %1</translation>
    </message>
    <message>
        <source>Cancelled: nothing was changed.</source>
        <translation>Abgebrochen: Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>This could not be done:</source>
        <translation>Das konnte nicht ausgeführt werden:</translation>
    </message>
    <message numerus="yes">
        <source>(%n path(s) skipped; first: %1)</source>
        <translation>
            <numerusform>(%n Pfad übersprungen; erster: %1)</numerusform>
            <numerusform>(%n Pfade übersprungen; erster: %1)</numerusform>
        </translation>
    </message>
    <message>
        <source>At start: %1</source>
        <translation>Beim Start: %1</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <source>Destroy sandbox</source>
        <translation>Sandbox löschen</translation>
    </message>
    <message>
        <source>Destroy the sandbox &lt;b&gt;%1&lt;/b&gt;?</source>
        <translation>Die Sandbox &lt;b&gt;%1&lt;/b&gt; löschen?</translation>
    </message>
    <message numerus="yes">
        <source>Its workspace folder and its %n checkpoint(s) are deleted. This cannot be undone.</source>
        <translation>
            <numerusform>Ihr Arbeitsbereich und ihr %n Checkpoint werden gelöscht. Das kann nicht rückgängig gemacht werden.</numerusform>
            <numerusform>Ihr Arbeitsbereich und ihre %n Checkpoints werden gelöscht. Das kann nicht rückgängig gemacht werden.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot open %1 in a file manager</source>
        <translation>%1 kann nicht in einem Dateimanager geöffnet werden</translation>
    </message>
    <message>
        <source>Restore checkpoint</source>
        <translation>Checkpoint wiederherstellen</translation>
    </message>
    <message>
        <source>Restore the workspace of &lt;b&gt;%1&lt;/b&gt; to checkpoint %2?</source>
        <translation>Den Arbeitsbereich von &lt;b&gt;%1&lt;/b&gt; auf Checkpoint %2 zurücksetzen?</translation>
    </message>
    <message>
        <source>Unsaved changes in the workspace are checkpointed first, and the restore is recorded as a new checkpoint: nothing is lost.</source>
        <translation>Ungesicherte Änderungen im Arbeitsbereich werden vorher als Checkpoint gesichert, und die Wiederherstellung wird als neuer Checkpoint festgehalten: Nichts geht verloren.</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Another checkpoint operation is running: try again when it ends.</source>
        <translation>Eine andere Checkpoint-Operation läuft: Bitte erneut versuchen, wenn sie beendet ist.</translation>
    </message>
    <message>
        <source>The store is unavailable.</source>
        <translation>Die Ablage ist nicht verfügbar.</translation>
    </message>
    <message>
        <source>Promote…</source>
        <translation>Übernehmen…</translation>
    </message>
    <message>
        <source>Review what the selected sandbox changed and promote it into main (or another sandbox)</source>
        <translation>Prüfen, was die gewählte Sandbox geändert hat, und es nach main (oder in eine andere Sandbox) übernehmen</translation>
    </message>
    <message>
        <source>Promoted %1 into %2: checkpoint %3</source>
        <translation>%1 nach %2 übernommen: Checkpoint %3</translation>
    </message>
    <message>
        <source>Sweeping expired and idle sandboxes…</source>
        <translation>Abgelaufene und ruhende Sandboxes werden aufgeräumt…</translation>
    </message>
    <message>
        <source>Labelling the checkpoint…</source>
        <translation>Der Checkpoint wird beschriftet…</translation>
    </message>
    <message>
        <source>Reviving the archived sandbox…</source>
        <translation>Die archivierte Sandbox wird wiederhergestellt…</translation>
    </message>
    <message>
        <source>Label…</source>
        <translation>Beschriften…</translation>
    </message>
    <message>
        <source>Give the selected checkpoint a label, or clear it (its id stays)</source>
        <translation>Dem gewählten Checkpoint eine Beschriftung geben oder sie entfernen (seine ID bleibt)</translation>
    </message>
    <message>
        <source>Destroy every expired sandbox, archive every idle one (its work kept), and free what nothing uses</source>
        <translation>Jede abgelaufene Sandbox löschen, jede ruhende archivieren (ihre Arbeit bleibt erhalten) und freigeben, was nichts mehr benutzt</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointDialog</name>
    <message>
        <source>Create checkpoint</source>
        <translation>Checkpoint anlegen</translation>
    </message>
    <message>
        <source>e.g. before the velocity rule</source>
        <translation>z. B. vor der Velocity-Regel</translation>
    </message>
    <message>
        <source>why (optional)</source>
        <translation>warum (optional)</translation>
    </message>
    <message>
        <source>Snapshot the workspace of &lt;b&gt;%1&lt;/b&gt; as it is now.</source>
        <translation>Den Arbeitsbereich von &lt;b&gt;%1&lt;/b&gt; so festhalten, wie er jetzt ist.</translation>
    </message>
    <message>
        <source>&amp;Label:</source>
        <translation>&amp;Bezeichnung:</translation>
    </message>
    <message>
        <source>&amp;Message:</source>
        <translation>&amp;Nachricht:</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointJobRunner</name>
    <message>
        <source>Sandbox %1 created from %2: %3 files, %4</source>
        <translation>Sandbox %1 aus %2 angelegt: %3 Dateien, %4</translation>
    </message>
    <message>
        <source>Sandbox %1 destroyed: %2 checkpoints removed, %3 freed</source>
        <translation>Sandbox %1 gelöscht: %2 Checkpoints entfernt, %3 freigegeben</translation>
    </message>
    <message>
        <source>Checkpoint %1 of %2: %3 added, %4 modified, %5 removed</source>
        <translation>Checkpoint %1 von %2: %3 hinzugefügt, %4 geändert, %5 entfernt</translation>
    </message>
    <message>
        <source> (unsaved changes saved first as %1)</source>
        <translation> (ungesicherte Änderungen vorher als %1 gesichert)</translation>
    </message>
    <message>
        <source>%1 restored to %2: %3 added, %4 modified, %5 removed%6</source>
        <translation>%1 auf %2 zurückgesetzt: %3 hinzugefügt, %4 geändert, %5 entfernt%6</translation>
    </message>
    <message>
        <source>Sandbox %1 forked from checkpoint %2</source>
        <translation>Sandbox %1 von Checkpoint %2 abgezweigt</translation>
    </message>
    <message>
        <source>Sweep: no expired sandboxes</source>
        <translation>Aufräumen: keine abgelaufenen Sandboxes</translation>
    </message>
    <message>
        <source>Sweep destroyed the expired sandboxes %1 (%2 checkpoints, %3 freed)</source>
        <translation>Aufräumen hat die abgelaufenen Sandboxes %1 gelöscht (%2 Checkpoints, %3 freigegeben)</translation>
    </message>
    <message>
        <source>Demo sandboxes %1 ready with %2 checkpoints</source>
        <translation>Demo-Sandboxes %1 bereit mit %2 Checkpoints</translation>
    </message>
    <message>
        <source>Sweep archived the idle sandboxes %1 (their work is checkpointed; they come back when used)</source>
        <translation>Aufräumen hat die ruhenden Sandboxes %1 archiviert (ihre Arbeit ist als Checkpoint gesichert; sie kehren bei Benutzung zurück)</translation>
    </message>
    <message>
        <source>Checkpoint %1: label cleared</source>
        <translation>Checkpoint %1: Beschriftung entfernt</translation>
    </message>
    <message>
        <source>Checkpoint %1 labelled “%2”</source>
        <translation>Checkpoint %1 beschriftet mit „%2“</translation>
    </message>
    <message>
        <source>Sandbox %1: settings applied</source>
        <translation>Sandbox %1: Einstellungen übernommen</translation>
    </message>
    <message>
        <source>Sandbox %1 revived: its workspace is back from checkpoint %2</source>
        <translation>Sandbox %1 wiederhergestellt: ihr Arbeitsbereich ist aus Checkpoint %2 zurück</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointListModel</name>
    <message>
        <source>from %1</source>
        <translation>aus %1</translation>
    </message>
    <message>
        <source>Checkpoint %1</source>
        <translation>Checkpoint %1</translation>
    </message>
    <message>
        <source>The sandbox&apos;s workspace stands on this checkpoint (its head).</source>
        <translation>Der Arbeitsbereich der Sandbox steht auf diesem Checkpoint (ihr Head).</translation>
    </message>
    <message>
        <source>Label: %1</source>
        <translation>Bezeichnung: %1</translation>
    </message>
    <message>
        <source>Message: %1</source>
        <translation>Nachricht: %1</translation>
    </message>
    <message>
        <source>Parent: %1%2</source>
        <translation>Eltern-Checkpoint: %1%2</translation>
    </message>
    <message>
        <source> (in another sandbox)</source>
        <translation> (in einer anderen Sandbox)</translation>
    </message>
    <message>
        <source>Made from: %1</source>
        <translation>Angelegt aus: %1</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>Graph</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Label / message</source>
        <translation>Bezeichnung / Nachricht</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
</context>
<context>
    <name>sb::ui::ClusterJobsModel</name>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Tasks done</source>
        <translation>Erledigte Tasks</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <source>Slurm jobs</source>
        <translation>Slurm-Jobs</translation>
    </message>
    <message>
        <source>User@host</source>
        <translation>Benutzer@Host</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>%1
Folder: %2</source>
        <translation>%1
Ordner: %2</translation>
    </message>
    <message>
        <source>Process %1 on %2; its status was last written %3</source>
        <translation>Prozess %1 auf %2; sein Status wurde zuletzt %3 geschrieben</translation>
    </message>
    <message>
        <source>Its command ended without a word (killed, or its machine went down), so no one follows its Slurm jobs: Remove cancels whatever Slurm still has of them, then deletes the folder.</source>
        <translation>Sein Befehl endete ohne ein Wort (beendet, oder sein Rechner fiel aus), also verfolgt niemand seine Slurm-Jobs: Entfernen bricht ab, was Slurm noch von ihnen hat, und löscht dann den Ordner.</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>wird abgebrochen…</translation>
    </message>
    <message>
        <source>removing…</source>
        <translation>wird entfernt…</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>verschwunden</translation>
    </message>
    <message>
        <source>unreadable: %1</source>
        <translation>unlesbar: %1</translation>
    </message>
    <message>
        <source>submitting</source>
        <translation>übermittelt</translation>
    </message>
    <message>
        <source>splitting</source>
        <translation>teilt auf</translation>
    </message>
    <message>
        <source>scanning</source>
        <translation>liest</translation>
    </message>
    <message>
        <source>evaluating</source>
        <translation>wertet aus</translation>
    </message>
    <message>
        <source>merging</source>
        <translation>führt zusammen</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>unlesbar</translation>
    </message>
    <message>
        <source>rules</source>
        <translation>Regeln</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>Stapel</translation>
    </message>
    <message>
        <source>agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 of %2 tasks done, %3 queued, %4 running</source>
        <translation>%1 von %2 Tasks erledigt, %3 in der Warteschlange, %4 laufen</translation>
    </message>
    <message>
        <source>, %1 retried</source>
        <translation>, %1 wiederholt</translation>
    </message>
    <message>
        <source>%1 s ago</source>
        <translation>vor %1 s</translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation>vor %1 min</translation>
    </message>
    <message>
        <source>%1 h %2 min ago</source>
        <translation>vor %1 h %2 min</translation>
    </message>
</context>
<context>
    <name>sb::ui::ClusterJobsPanel</name>
    <message>
        <source>Cluster jobs</source>
        <translation>Cluster-Jobs</translation>
    </message>
    <message>
        <source>Reading the cluster configuration…</source>
        <translation>Die Cluster-Konfiguration wird gelesen…</translation>
    </message>
    <message>
        <source>Cannot cancel the cluster job: %1</source>
        <translation>Der Cluster-Job kann nicht abgebrochen werden: %1</translation>
    </message>
    <message>
        <source>Cannot remove the cluster job&apos;s folder: %1</source>
        <translation>Der Ordner des Cluster-Jobs kann nicht entfernt werden: %1</translation>
    </message>
    <message>
        <source>No Slurm cluster is configured. The commands sent with &lt;code&gt;--backend slurm&lt;/code&gt; show here once %1 has a &lt;code&gt;slurm&lt;/code&gt; section naming their spool: see &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;.</source>
        <translation>Kein Slurm-Cluster ist konfiguriert. Die mit &lt;code&gt;--backend slurm&lt;/code&gt; gesendeten Befehle erscheinen hier, sobald %1 einen Abschnitt &lt;code&gt;slurm&lt;/code&gt; hat, der ihren Spool-Ordner nennt: siehe &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;.</translation>
    </message>
    <message>
        <source>The cluster configuration cannot be read: %1</source>
        <translation>Die Cluster-Konfiguration kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The cluster spool cannot be listed: %1</source>
        <translation>Der Spool-Ordner des Clusters kann nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>No jobs in the cluster spool %1. A command sent with &lt;code&gt;--backend slurm&lt;/code&gt; shows here while it runs, and stays if it fails.</source>
        <translation>Keine Jobs im Spool-Ordner %1 des Clusters. Ein mit &lt;code&gt;--backend slurm&lt;/code&gt; gesendeter Befehl erscheint hier, solange er läuft, und bleibt, wenn er fehlschlägt.</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Cancel this command&apos;s Slurm jobs</source>
        <translation>Die Slurm-Jobs dieses Befehls abbrechen</translation>
    </message>
    <message>
        <source>Cancel job %1</source>
        <translation>Job %1 abbrechen</translation>
    </message>
    <message>
        <source>Remove job %1</source>
        <translation>Job %1 entfernen</translation>
    </message>
    <message>
        <source>Open the folder of job %1</source>
        <translation>Ordner von Job %1 öffnen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove this job&apos;s folder from the spool, with its logs</source>
        <translation>Den Ordner dieses Jobs samt Logs aus dem Spool-Ordner entfernen</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>Logs</translation>
    </message>
    <message>
        <source>Open this job&apos;s folder, with its logs, in the file manager</source>
        <translation>Den Ordner dieses Jobs samt Logs im Dateimanager öffnen</translation>
    </message>
    <message>
        <source>Asked the command to cancel its Slurm jobs; it does so at its next look at the queue.</source>
        <translation>Der Befehl wurde gebeten, seine Slurm-Jobs abzubrechen; er tut es, sobald er wieder in die Warteschlange schaut.</translation>
    </message>
    <message>
        <source>Cancel cluster job</source>
        <translation>Cluster-Job abbrechen</translation>
    </message>
    <message>
        <source>Cancel &lt;b&gt;%1&lt;/b&gt;?</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; abbrechen?</translation>
    </message>
    <message>
        <source>Its Slurm jobs are cancelled (scancel) and the command ends without a result: what its tasks have done is not recorded. This cannot be undone.</source>
        <translation>Seine Slurm-Jobs werden abgebrochen (scancel), und der Befehl endet ohne Ergebnis: Was seine Tasks getan haben, wird nicht festgehalten. Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Cancel jobs</source>
        <translation>Jobs abbrechen</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>Weiterlaufen lassen</translation>
    </message>
    <message>
        <source>Remove cluster job</source>
        <translation>Cluster-Job entfernen</translation>
    </message>
    <message>
        <source>Remove the folder of &lt;b&gt;%1&lt;/b&gt; from the spool?</source>
        <translation>Den Ordner von &lt;b&gt;%1&lt;/b&gt; aus dem Spool-Ordner entfernen?</translation>
    </message>
    <message>
        <source>%1 is deleted with the logs in it. This cannot be undone.</source>
        <translation>%1 wird samt den Logs darin gelöscht. Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Cannot open %1 in a file manager</source>
        <translation>%1 kann nicht in einem Dateimanager geöffnet werden</translation>
    </message>
</context>
<context>
    <name>sb::ui::DemoTour</name>
    <message>
        <source>Play demo</source>
        <translation>Demo abspielen</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <source>End the walk (Esc)</source>
        <translation>Rundgang beenden (Esc)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>The demo store is ready</source>
        <translation>Die Demo-Ablage ist bereit</translation>
    </message>
    <message>
        <source>This window works on a demo store of its own, filled with snippets of every outcome, the rules demo, a recorded agent session, sandboxes with checkpoints and a change ready to promote. Your own store is untouched. Play demo walks through it in about a minute.</source>
        <translation>Dieses Fenster arbeitet mit einer eigenen Demo-Ablage: Snippets mit jedem Ergebnis, die Regel-Demo, eine aufgezeichnete Agent-Sitzung, Sandboxes mit Checkpoints und eine Änderung, die zur Übernahme bereitsteht. Ihre eigene Ablage bleibt unberührt. „Demo abspielen“ führt in etwa einer Minute hindurch.</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Snippets and their outcomes</source>
        <translation>Snippets und ihre Ergebnisse</translation>
    </message>
    <message>
        <source>A blocked run, explained</source>
        <translation>Ein blockierter Lauf, erklärt</translation>
    </message>
    <message>
        <source>Rules: an A/B comparison</source>
        <translation>Regeln: ein A/B-Vergleich</translation>
    </message>
    <message>
        <source>A recorded agent session</source>
        <translation>Eine aufgezeichnete Agent-Sitzung</translation>
    </message>
    <message>
        <source>Sandboxes and their checkpoints</source>
        <translation>Sandboxes und ihre Checkpoints</translation>
    </message>
    <message>
        <source>Reviewing a promotion</source>
        <translation>Eine Übernahme prüfen</translation>
    </message>
    <message>
        <source>The dashboard</source>
        <translation>Das Dashboard</translation>
    </message>
    <message>
        <source>Every snippet runs in an operating-system sandbox and ends in one outcome: ok, error, blocked, timeout, memory limit or crashed. The history lists the demo&apos;s snippets, one of each.</source>
        <translation>Jedes Snippet läuft in einer Sandbox des Betriebssystems und endet mit einem Ergebnis: ok, Fehler, blockiert, Zeitüberschreitung, Speichergrenze oder abgestürzt. Der Verlauf listet die Snippets der Demo, je eines.</translation>
    </message>
    <message>
        <source>This snippet tried something its policy refuses. The output names what the sandbox blocked and the isolation the run had; the run is recorded with it, as every run is.</source>
        <translation>Dieses Snippet versuchte etwas, das seine Richtlinie verbietet. Die Ausgabe nennt, was die Sandbox blockiert hat und welche Isolation der Lauf hatte; der Lauf wird damit aufgezeichnet, wie jeder Lauf.</translation>
    </message>
    <message>
        <source>The rules workspace runs rule sets on a dataset. The current rules against two variants on 5,000 demo transactions: the charts show the decisions each variant changes.</source>
        <translation>Der Regel-Arbeitsbereich wendet Regelsätze auf einen Datensatz an. Die aktuellen Regeln gegen zwei Varianten auf 5.000 Demo-Transaktionen: Die Diagramme zeigen, welche Entscheidungen jede Variante ändert.</translation>
    </message>
    <message>
        <source>A scripted agent upgraded a dependency in a sandbox of its own. Every tool call is a step on the timeline, with its arguments, its result and the policy&apos;s decision.</source>
        <translation>Ein skriptgesteuerter Agent hat in einer eigenen Sandbox eine Abhängigkeit aktualisiert. Jeder Werkzeugaufruf ist ein Schritt auf der Zeitleiste, mit seinen Argumenten, seinem Ergebnis und der Entscheidung der Richtlinie.</translation>
    </message>
    <message>
        <source>A sandbox keeps checkpoints of its workspace, like commits: the graph shows them, and demo-rules-strict is a fork made from one. Select one, or two, to see what changed.</source>
        <translation>Eine Sandbox bewahrt Checkpoints ihres Arbeitsbereichs auf, wie Commits: Der Graph zeigt sie, und demo-rules-strict ist ein Fork aus einem davon. Wählen Sie einen oder zwei, um zu sehen, was sich geändert hat.</translation>
    </message>
    <message>
        <source>The agent&apos;s change waits to be promoted into the repository it came from. The review shows the changed files, the risk and the checks first; the walk closes it without promoting.</source>
        <translation>Die Änderung des Agenten wartet darauf, in das Repository übernommen zu werden, aus dem sie stammt. Die Prüfung zeigt zuerst die geänderten Dateien, das Risiko und die Prüfungen; der Rundgang schließt sie, ohne zu übernehmen.</translation>
    </message>
    <message>
        <source>Every run is measured: outcomes, durations, blocked events, agent steps and promotions over time. Click a bar to narrow the history to its runs.</source>
        <translation>Jeder Lauf wird gemessen: Ergebnisse, Dauern, blockierte Ereignisse, Agent-Schritte und Übernahmen im Zeitverlauf. Ein Klick auf einen Balken grenzt den Verlauf auf dessen Läufe ein.</translation>
    </message>
    <message>
        <source>Finish</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>Schritt %1 von %2: %3</translation>
    </message>
</context>
<context>
    <name>sb::ui::DiffFileModel</name>
    <message>
        <source>binary</source>
        <translation>binär</translation>
    </message>
    <message>
        <source>too large</source>
        <translation>zu groß</translation>
    </message>
    <message>
        <source>Added: %1</source>
        <translation>Hinzugefügt: %1</translation>
    </message>
    <message>
        <source>Removed: %1</source>
        <translation>Entfernt: %1</translation>
    </message>
    <message>
        <source>Modified: %1</source>
        <translation>Geändert: %1</translation>
    </message>
    <message>
        <source>Changed path</source>
        <translation>Geänderter Pfad</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>Zeilen</translation>
    </message>
</context>
<context>
    <name>sb::ui::DiffPane</name>
    <message>
        <source>Unified</source>
        <translation>Einspaltig</translation>
    </message>
    <message>
        <source>Show the diff as one column: removed lines above the lines that replace them</source>
        <translation>Den Diff in einer Spalte zeigen: entfernte Zeilen über den Zeilen, die sie ersetzen</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Nebeneinander</translation>
    </message>
    <message>
        <source>Show the old version on the left and the new one on the right</source>
        <translation>Die alte Fassung links und die neue rechts zeigen</translation>
    </message>
    <message>
        <source>Diff:</source>
        <translation>Diff:</translation>
    </message>
</context>
<context>
    <name>sb::ui::DocsBrowser</name>
    <message>
        <source>Sandbench documentation</source>
        <translation>Sandbench-Dokumentation</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>Vorwärts</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Dokument</translation>
    </message>
    <message>
        <source>Document:</source>
        <translation>Dokument:</translation>
    </message>
    <message>
        <source>%1 is not part of the documentation built into Sandbench; it is in the source tree.</source>
        <translation>%1 gehört nicht zur in Sandbench eingebauten Dokumentation; es liegt im Quellbaum.</translation>
    </message>
</context>
<context>
    <name>sb::ui::DoctorDialog</name>
    <message>
        <source>Isolation on this machine</source>
        <translation>Isolation auf diesem Rechner</translation>
    </message>
    <message>
        <source>%1: yes</source>
        <translation>%1: ja</translation>
    </message>
    <message>
        <source>%1: no</source>
        <translation>%1: nein</translation>
    </message>
    <message>
        <source>Isolation levels a run can have here — %1</source>
        <translation>Isolationsstufen, die ein Lauf hier haben kann — %1</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>Here</source>
        <translation>Hier</translation>
    </message>
    <message>
        <source>What was found</source>
        <translation>Was gefunden wurde</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>The same report on the command line: &lt;code&gt;sandbench doctor&lt;/code&gt; (or &lt;code&gt;--json&lt;/code&gt;).</source>
        <translation>Derselbe Bericht auf der Kommandozeile: &lt;code&gt;sandbench doctor&lt;/code&gt; (oder &lt;code&gt;--json&lt;/code&gt;).</translation>
    </message>
</context>
<context>
    <name>sb::ui::EditArgumentsDialog</name>
    <message>
        <source>Edit the arguments of step %1</source>
        <translation>Argumente von Schritt %1 bearbeiten</translation>
    </message>
    <message>
        <source>Step %1 calls &lt;b&gt;%2&lt;/b&gt;. It goes on with these arguments instead of the agent&apos;s, and is recorded as edited.</source>
        <translation>Schritt %1 ruft &lt;b&gt;%2&lt;/b&gt; auf. Er wird mit diesen Argumenten statt denen des Agenten fortgesetzt und als bearbeitet aufgezeichnet.</translation>
    </message>
    <message>
        <source>Go on with these</source>
        <translation>Mit diesen fortsetzen</translation>
    </message>
    <message>
        <source>The arguments must be a JSON object ({ ... }); this is a JSON %1.</source>
        <translation>Die Argumente müssen ein JSON-Objekt sein ({ ... }); dies ist ein JSON-Wert vom Typ %1.</translation>
    </message>
    <message>
        <source>Not JSON: %1</source>
        <translation>Kein JSON: %1</translation>
    </message>
</context>
<context>
    <name>sb::ui::FindBar</name>
    <message>
        <source>Find</source>
        <translation>Suchen</translation>
    </message>
    <message>
        <source>Text to find</source>
        <translation>Zu suchender Text</translation>
    </message>
    <message>
        <source>▲</source>
        <translation>▲</translation>
    </message>
    <message>
        <source>Find the previous match (Shift+F3, Shift+Enter)</source>
        <translation>Vorherigen Treffer suchen (Umschalt+F3, Umschalt+Eingabe)</translation>
    </message>
    <message>
        <source>▼</source>
        <translation>▼</translation>
    </message>
    <message>
        <source>Find the next match (F3, Enter)</source>
        <translation>Nächsten Treffer suchen (F3, Eingabe)</translation>
    </message>
    <message>
        <source>Aa</source>
        <translation>Aa</translation>
    </message>
    <message>
        <source>Match case</source>
        <translation>Groß-/Kleinschreibung beachten</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>Whole words only</source>
        <translation>Nur ganze Wörter</translation>
    </message>
    <message>
        <source>.*</source>
        <translation>.*</translation>
    </message>
    <message>
        <source>Regular expression (replace with \1 for a captured group)</source>
        <translation>Regulärer Ausdruck (ersetzen mit \1 für eine erfasste Gruppe)</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>Vorheriger Treffer</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>Nächster Treffer</translation>
    </message>
    <message>
        <source>Regular expression</source>
        <translation>Regulärer Ausdruck</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>Keine Treffer</translation>
    </message>
    <message>
        <source>✕</source>
        <translation>✕</translation>
    </message>
    <message>
        <source>Close the find bar (Esc)</source>
        <translation>Suchleiste schließen (Esc)</translation>
    </message>
    <message>
        <source>Close the find bar</source>
        <translation>Suchleiste schließen</translation>
    </message>
    <message>
        <source>Replace with</source>
        <translation>Ersetzen durch</translation>
    </message>
    <message>
        <source>Replacement text</source>
        <translation>Ersetzungstext</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>Ersetzen</translation>
    </message>
    <message>
        <source>Replace the selected match and find the next</source>
        <translation>Den ausgewählten Treffer ersetzen und den nächsten suchen</translation>
    </message>
    <message>
        <source>Replace All</source>
        <translation>Alle ersetzen</translation>
    </message>
    <message>
        <source>Replace every match (one undo step)</source>
        <translation>Jeden Treffer ersetzen (ein Rückgängig-Schritt)</translation>
    </message>
    <message>
        <source>Invalid pattern</source>
        <translation>Ungültiges Muster</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n Treffer</numerusform>
            <numerusform>%n Treffer</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>%n ersetzt</numerusform>
            <numerusform>%n ersetzt</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sb::ui::ForkDialog</name>
    <message>
        <source>Fork checkpoint</source>
        <translation>Checkpoint abzweigen</translation>
    </message>
    <message>
        <source>A new sandbox whose workspace is checkpoint %1.</source>
        <translation>Eine neue Sandbox, deren Arbeitsbereich Checkpoint %1 ist.</translation>
    </message>
    <message>
        <source>New sandbox &amp;name:</source>
        <translation>&amp;Name der neuen Sandbox:</translation>
    </message>
    <message>
        <source>Fork</source>
        <translation>Abzweigen</translation>
    </message>
</context>
<context>
    <name>sb::ui::IsolationStatus</name>
    <message>
        <source>Isolation of the next run</source>
        <translation>Isolation des nächsten Laufs</translation>
    </message>
    <message>
        <source>The sandbox&apos;s layers on this machine, as sandbench doctor finds them: click for the details</source>
        <translation>Die Schichten der Sandbox auf diesem Rechner, wie sandbench doctor sie findet: Klicken für Einzelheiten</translation>
    </message>
    <message>
        <source>Isolation: checking…</source>
        <translation>Isolation: wird geprüft…</translation>
    </message>
    <message>
        <source>the policy&apos;s level</source>
        <translation>die Stufe der Richtlinie</translation>
    </message>
    <message>
        <source>Isolation: %1</source>
        <translation>Isolation: %1</translation>
    </message>
    <message>
        <source>Isolation: %1 · %2 of %3 layers</source>
        <translation>Isolation: %1 · %2 von %3 Schichten</translation>
    </message>
</context>
<context>
    <name>sb::ui::JsonTreeModel</name>
    <message>
        <source>{1 member}</source>
        <translation>{1 Eintrag}</translation>
    </message>
    <message>
        <source>{%1 members}</source>
        <translation>{%1 Einträge}</translation>
    </message>
    <message>
        <source>[1 item]</source>
        <translation>[1 Element]</translation>
    </message>
    <message>
        <source>[%1 items]</source>
        <translation>[%1 Elemente]</translation>
    </message>
    <message>
        <source>(cut: the value has more than %1 nodes)</source>
        <translation>(gekürzt: Der Wert hat mehr als %1 Knoten)</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
</context>
<context>
    <name>sb::ui::LabelDialog</name>
    <message>
        <source>Label checkpoint</source>
        <translation>Checkpoint beschriften</translation>
    </message>
    <message>
        <source>e.g. release candidate 2 (empty: no label)</source>
        <translation>z. B. Release-Kandidat 2 (leer: keine Beschriftung)</translation>
    </message>
    <message>
        <source>The label of checkpoint %1. Labels can change at any time; the checkpoint and its id stay as they are.</source>
        <translation>Die Beschriftung von Checkpoint %1. Beschriftungen können sich jederzeit ändern; der Checkpoint und seine ID bleiben, wie sie sind.</translation>
    </message>
    <message>
        <source>&amp;Label:</source>
        <translation>&amp;Beschriftung:</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
</context>
<context>
    <name>sb::ui::LaunchAgentDialog</name>
    <message>
        <source>Step mode: pause before every call until Step or Continue</source>
        <translation>Einzelschrittmodus: vor jedem Aufruf anhalten bis „Schritt“ oder „Fortsetzen“</translation>
    </message>
    <message>
        <source>Launch an agent</source>
        <translation>Einen Agenten starten</translation>
    </message>
    <message>
        <source>Worked example (upgrade a dependency)</source>
        <translation>Mitgeliefertes Beispiel (eine Abhängigkeit aktualisieren)</translation>
    </message>
    <message>
        <source>Any command</source>
        <translation>Beliebiger Befehl</translation>
    </message>
    <message>
        <source>python3 /path/to/agent.py --flag</source>
        <translation>python3 /pfad/zu/agent.py --flag</translation>
    </message>
    <message>
        <source>The agent&apos;s program and its arguments, split into words at spaces; double quotes keep spaces inside a word. It runs in a sandbox of its own with Sandbench as its MCP server on stdin and stdout.</source>
        <translation>Das Programm des Agenten und seine Argumente, an Leerzeichen in Wörter geteilt; doppelte Anführungszeichen halten Leerzeichen innerhalb eines Wortes. Es läuft in einer eigenen Sandbox mit Sandbench als MCP-Server auf stdin und stdout.</translation>
    </message>
    <message>
        <source>One absolute path a line: the agent program&apos;s own files (its script)</source>
        <translation>Ein absoluter Pfad pro Zeile: die eigenen Dateien des Agent-Programms (sein Skript)</translation>
    </message>
    <message>
        <source>Added to what the agent&apos;s run may read; the agent reaches its sandbox&apos;s workspace only through the tools</source>
        <translation>Ergänzt, was der Lauf des Agenten lesen darf; den Arbeitsbereich seiner Sandbox erreicht der Agent nur über die Tools</translation>
    </message>
    <message>
        <source>Add file…</source>
        <translation>Datei hinzufügen…</translation>
    </message>
    <message>
        <source>Add folder…</source>
        <translation>Ordner hinzufügen…</translation>
    </message>
    <message>
        <source>Preset: %1</source>
        <translation>Vorlage: %1</translation>
    </message>
    <message>
        <source>A policy file…</source>
        <translation>Eine Richtliniendatei…</translation>
    </message>
    <message>
        <source>/path/to/policy.yaml</source>
        <translation>/pfad/zu/policy.yaml</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Every call waits in the control bar of the agent workspace: Step lets one go, Continue runs on to a breakpoint or the end</source>
        <translation>Jeder Aufruf wartet in der Steuerleiste des Agent-Arbeitsbereichs: „Schritt“ lässt einen durch, „Fortsetzen“ läuft bis zu einem Haltepunkt oder zum Ende weiter</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>&amp;Agent:</source>
        <translation>&amp;Agent:</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>&amp;Befehl:</translation>
    </message>
    <message>
        <source>&amp;Reads:</source>
        <translation>&amp;Liest:</translation>
    </message>
    <message>
        <source>&amp;Policy:</source>
        <translation>&amp;Richtlinie:</translation>
    </message>
    <message>
        <source>Policy &amp;file:</source>
        <translation>Richtlinien&amp;datei:</translation>
    </message>
    <message>
        <source>&amp;Sandbox:</source>
        <translation>&amp;Sandbox:</translation>
    </message>
    <message>
        <source>A new sandbox from main</source>
        <translation>Eine neue Sandbox aus main</translation>
    </message>
    <message>
        <source>The store&apos;s sandboxes could not be read: %1</source>
        <translation>Die Sandboxes der Ablage konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The example&apos;s own (examples/agents/policy.yaml)</source>
        <translation>Die eigene des Beispiels (examples/agents/policy.yaml)</translation>
    </message>
    <message>
        <source>The sandbox&apos;s own, else the agent preset</source>
        <translation>Die eigene der Sandbox, sonst die Agent-Vorlage</translation>
    </message>
    <message>
        <source>The worked example works in its own sandboxes, %1 made from %2; those an earlier demo or launch left are replaced (their sessions stay, as history).</source>
        <translation>Das mitgelieferte Beispiel arbeitet in eigenen Sandboxes, %1, angelegt aus %2; solche, die eine frühere Demo oder ein früherer Start hinterlassen hat, werden ersetzt (ihre Sitzungen bleiben als Verlauf erhalten).</translation>
    </message>
    <message>
        <source>A new sandbox is named agent-XXXXXXXX; the agent works in its workspace through the tools.</source>
        <translation>Eine neue Sandbox heißt agent-XXXXXXXX; der Agent arbeitet über die Tools in ihrem Arbeitsbereich.</translation>
    </message>
    <message>
        <source>Type the agent&apos;s command line.</source>
        <translation>Die Befehlszeile des Agenten eingeben.</translation>
    </message>
    <message>
        <source>Give the program as an absolute path or a name on PATH: the agent runs in a work dir of its own, where %1 means nothing.</source>
        <translation>Das Programm als absoluten Pfad oder als Namen im PATH angeben: Der Agent läuft in einem eigenen Arbeitsverzeichnis, in dem %1 nichts bedeutet.</translation>
    </message>
    <message>
        <source>%1 is not an executable file.</source>
        <translation>%1 ist keine ausführbare Datei.</translation>
    </message>
    <message>
        <source>No program %1 on PATH.</source>
        <translation>Kein Programm %1 im PATH.</translation>
    </message>
    <message>
        <source>Read path %1: give an absolute path.</source>
        <translation>Lesepfad %1: bitte einen absoluten Pfad angeben.</translation>
    </message>
    <message>
        <source>Read path %1 does not exist.</source>
        <translation>Lesepfad %1 existiert nicht.</translation>
    </message>
    <message>
        <source>Choose a policy file.</source>
        <translation>Eine Richtliniendatei wählen.</translation>
    </message>
    <message>
        <source>No policy file %1.</source>
        <translation>Die Richtliniendatei %1 gibt es nicht.</translation>
    </message>
    <message>
        <source>The policy file cannot be used: %1</source>
        <translation>Die Richtliniendatei kann nicht verwendet werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n word(s): %1</source>
        <translation>
            <numerusform>%n Wort: %1</numerusform>
            <numerusform>%n Wörter: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>A folder the agent&apos;s program reads</source>
        <translation>Ein Ordner, den das Programm des Agenten liest</translation>
    </message>
    <message>
        <source>A file the agent&apos;s program reads</source>
        <translation>Eine Datei, die das Programm des Agenten liest</translation>
    </message>
    <message>
        <source>A policy for the agent</source>
        <translation>Eine Richtlinie für den Agenten</translation>
    </message>
    <message>
        <source>Policies (*.yaml *.yml);;All files (*)</source>
        <translation>Richtlinien (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>sb::ui::MainWindow</name>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>Run the snippet in the sandbox (Ctrl+Return)</source>
        <translation>Das Snippet in der Sandbox ausführen (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>Abbre&amp;chen</translation>
    </message>
    <message>
        <source>Cancel the running job (Esc)</source>
        <translation>Den laufenden Auftrag abbrechen (Esc)</translation>
    </message>
    <message>
        <source>&amp;Demo</source>
        <translation>&amp;Demo</translation>
    </message>
    <message>
        <source>Run every demo case: moves every counter and chart</source>
        <translation>Alle Demo-Fälle ausführen: bewegt jeden Zähler und jedes Diagramm</translation>
    </message>
    <message>
        <source>&amp;About Sandbench</source>
        <translation>Ü&amp;ber Sandbench</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
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
        <translation>&amp;Sprache:</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Wall-clock limit: the whole run is killed when it is reached</source>
        <translation>Zeitlimit (Echtzeit): bei Erreichen wird die gesamte Ausführung beendet</translation>
    </message>
    <message>
        <source>&amp;Timeout:</source>
        <translation>&amp;Zeitlimit:</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Address-space limit of the run</source>
        <translation>Adressraum-Limit der Ausführung</translation>
    </message>
    <message>
        <source>&amp;Memory:</source>
        <translation>Spei&amp;cher:</translation>
    </message>
    <message>
        <source>Double-click a run to load its snippet into the editor</source>
        <translation>Doppelklick auf eine Ausführung lädt ihr Snippet in den Editor</translation>
    </message>
    <message>
        <source>Run history</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Messwerte</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Store: %1</source>
        <translation>Ablage: %1</translation>
    </message>
    <message>
        <source>The store %1 could not be opened: %2
Runs still work but are not recorded; the file was left untouched.</source>
        <translation>Die Ablage %1 konnte nicht geöffnet werden: %2
Ausführungen funktionieren weiterhin, werden aber nicht aufgezeichnet; die Datei blieb unverändert.</translation>
    </message>
    <message>
        <source>Store unavailable</source>
        <translation>Ablage nicht verfügbar</translation>
    </message>
    <message>
        <source>Demo %v/%m</source>
        <translation>Demo %v/%m</translation>
    </message>
    <message numerus="yes">
        <source>Demo: %n case(s)</source>
        <translation>
            <numerusform>Demo: %n Fall</numerusform>
            <numerusform>Demo: %n Fälle</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <source>Demo case %1 of %2: %3</source>
        <translation>Demo-Fall %1 von %2: %3</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <source>The run could not be recorded: %1</source>
        <translation>Die Ausführung konnte nicht aufgezeichnet werden: %1</translation>
    </message>
    <message>
        <source>Demo cancelled.</source>
        <translation>Demo abgebrochen.</translation>
    </message>
    <message>
        <source>Demo finished: every case ended as expected.</source>
        <translation>Demo beendet: jeder Fall endete wie erwartet.</translation>
    </message>
    <message numerus="yes">
        <source>Demo finished: %n case(s) ended unexpectedly.</source>
        <translation>
            <numerusform>Demo beendet: %n Fall endete unerwartet.</numerusform>
            <numerusform>Demo beendet: %n Fälle endeten unerwartet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Loaded the snippet of the run from %1</source>
        <translation>Snippet der Ausführung vom %1 geladen</translation>
    </message>
    <message>
        <source>Open snippet</source>
        <translation>Snippet öffnen</translation>
    </message>
    <message>
        <source>Snippets (*.py *.sh);;All files (*)</source>
        <translation>Snippets (*.py *.sh);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>This file cannot be opened:</source>
        <translation>Diese Datei kann nicht geöffnet werden:</translation>
    </message>
    <message>
        <source>Save snippet</source>
        <translation>Snippet speichern</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
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
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>The snippet has been modified. Save your changes?</source>
        <translation>Das Snippet wurde geändert. Änderungen speichern?</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>unbenannt</translation>
    </message>
    <message>
        <source>%1[*] — Sandbench</source>
        <translation>%1[*] — Sandbench</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>About Sandbench</source>
        <translation>Über Sandbench</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Sandbench %1&lt;/h3&gt;&lt;p&gt;A workbench for running what you do not trust: snippets run in an operating-system sandbox, every outcome is measured and kept in one SQLite store.&lt;/p&gt;&lt;p&gt;Store: &lt;code&gt;%2&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Sandbench %1&lt;/h3&gt;&lt;p&gt;Eine Werkbank für alles, dem Sie nicht vertrauen: Snippets laufen in einer Betriebssystem-Sandbox, jedes Ergebnis wird gemessen und in einer SQLite-Ablage aufbewahrt.&lt;/p&gt;&lt;p&gt;Ablage: &lt;code&gt;%2&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Isolation level of the run (sandbench doctor explains what this machine offers)</source>
        <translation>Isolationsstufe des Laufs (sandbench doctor erklärt, was dieser Rechner bietet)</translation>
    </message>
    <message>
        <source>&amp;Isolation:</source>
        <translation>&amp;Isolation:</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>Prüfprotokoll</translation>
    </message>
    <message>
        <source>Check&amp;points</source>
        <translation>Check&amp;points</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>&amp;Sandboxes</source>
        <translation>&amp;Sandboxes</translation>
    </message>
    <message>
        <source>&amp;Rules</source>
        <translation>&amp;Regeln</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Regeln</translation>
    </message>
    <message>
        <source>Agent sessions</source>
        <translation>Agent-Sitzungen</translation>
    </message>
    <message>
        <source>The run was not started: %1</source>
        <translation>Die Ausführung wurde nicht gestartet: %1</translation>
    </message>
    <message>
        <source>The demo was not started: %1</source>
        <translation>Die Demo wurde nicht gestartet: %1</translation>
    </message>
    <message>
        <source>The demo was not started: an agent launched from the agent workspace runs; stop it or let it end first</source>
        <translation>Die Demo wurde nicht gestartet: ein aus dem Agenten-Arbeitsbereich gestarteter Agent läuft; beenden Sie ihn oder warten Sie, bis er endet</translation>
    </message>
    <message>
        <source>%1 %2 is not listed in the window (removed, or older than the list shows)</source>
        <translation>%1 %2 ist im Fenster nicht aufgeführt (entfernt oder älter als das, was die Liste zeigt)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Cancel the running job</source>
        <translation>Die laufende Aufgabe abbrechen</translation>
    </message>
    <message>
        <source>Blocked by the sandbox: import of %1</source>
        <translation>Von der Sandbox blockiert: Import von %1</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>&amp;Dokumentation</translation>
    </message>
    <message>
        <source>Read Sandbench&apos;s documentation (F1)</source>
        <translation>Die Dokumentation von Sandbench lesen (F1)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>Ablage</translation>
    </message>
    <message>
        <source>The default policy in Edit ▸ Settings cannot rule a run: %1</source>
        <translation>Die Standardrichtlinie in Bearbeiten ▸ Einstellungen kann keinen Lauf regeln: %1</translation>
    </message>
    <message>
        <source>Open &amp;Demo Store</source>
        <translation>&amp;Demo-Ablage öffnen</translation>
    </message>
    <message>
        <source>Open a new window on a fresh demo store, for training; your store stays as it is</source>
        <translation>Ein neues Fenster mit einer frischen Demo-Ablage für Schulungen öffnen; Ihre Ablage bleibt, wie sie ist</translation>
    </message>
    <message>
        <source>&amp;Play Demo</source>
        <translation>Demo &amp;abspielen</translation>
    </message>
    <message>
        <source>Walk through the demo store&apos;s parts in about a minute (in a window on your own store, a demo store opens first)</source>
        <translation>Die Teile der Demo-Ablage in etwa einer Minute durchgehen (in einem Fenster mit Ihrer eigenen Ablage öffnet sich zuerst eine Demo-Ablage)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Suchen…</translation>
    </message>
    <message>
        <source>Find in the snippet, or in the rule set being edited (Ctrl+F)</source>
        <translation>Im Snippet suchen oder im bearbeiteten Regelsatz (Strg+F)</translation>
    </message>
    <message>
        <source>&amp;Replace…</source>
        <translation>&amp;Ersetzen…</translation>
    </message>
    <message>
        <source>Find and replace in the snippet, or in the rule set being edited (Ctrl+H)</source>
        <translation>Im Snippet oder im bearbeiteten Regelsatz suchen und ersetzen (Strg+H)</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>&amp;Weitersuchen</translation>
    </message>
    <message>
        <source>Find &amp;Previous</source>
        <translation>&amp;Rückwärts suchen</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>E&amp;instellungen…</translation>
    </message>
    <message>
        <source>Store, default policy, editor font, theme and language (Ctrl+,)</source>
        <translation>Ablage, Standardrichtlinie, Editorschrift, Farbschema und Sprache (Strg+,)</translation>
    </message>
    <message>
        <source> (Ctrl+%1)</source>
        <translation> (Strg+%1)</translation>
    </message>
    <message>
        <source>&amp;Snippets</source>
        <translation>&amp;Snippets</translation>
    </message>
    <message>
        <source>Snippets: the editor, a run&apos;s output and the run history</source>
        <translation>Snippets: der Editor, die Ausgabe eines Laufs und der Verlauf</translation>
    </message>
    <message>
        <source>Rules: rule sets, evaluation on a dataset, A/B comparison</source>
        <translation>Regeln: Regelsätze, Auswertung auf einem Datensatz, A/B-Vergleich</translation>
    </message>
    <message>
        <source>&amp;Agents</source>
        <translation>&amp;Agenten</translation>
    </message>
    <message>
        <source>Agents: sessions, their timeline, steps and diffs</source>
        <translation>Agenten: Sitzungen, ihre Zeitleiste, Schritte und Unterschiede</translation>
    </message>
    <message>
        <source>Checkpoints &amp; promotion: sandboxes, their checkpoints, diffs and the gate</source>
        <translation>Checkpoints &amp; Übernahme: Sandboxes, ihre Checkpoints, Unterschiede und die Freigabe</translation>
    </message>
    <message>
        <source>A&amp;udit</source>
        <translation>Pr&amp;üfprotokoll</translation>
    </message>
    <message>
        <source>Audit: the signed log of everything done, verified</source>
        <translation>Prüfprotokoll: das signierte Protokoll von allem, was getan wurde, geprüft</translation>
    </message>
    <message>
        <source>Das&amp;hboard</source>
        <translation>Das&amp;hboard</translation>
    </message>
    <message>
        <source>Dashboard: outcomes, durations, blocked events, agent steps and promotions</source>
        <translation>Dashboard: Ergebnisse, Dauern, blockierte Ereignisse, Agent-Schritte und Übernahmen</translation>
    </message>
    <message>
        <source>Reset Workspace &amp;Layout</source>
        <translation>Arbeitsbereich-Anordnung &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Show the current workspace&apos;s panels as they were at first</source>
        <translation>Die Bereiche des aktuellen Arbeitsbereichs so zeigen, wie sie anfangs waren</translation>
    </message>
    <message>
        <source>The sandbox the next runs work in: its workspace is theirs, their changes are checkpointed there</source>
        <translation>Die Sandbox, in der die nächsten Läufe arbeiten: Ihr Arbeitsbereich gehört ihnen, ihre Änderungen werden dort mit Checkpoints festgehalten</translation>
    </message>
    <message>
        <source>None (a fresh folder)</source>
        <translation>Keine (ein frischer Ordner)</translation>
    </message>
    <message>
        <source>San&amp;dbox:</source>
        <translation>San&amp;dbox:</translation>
    </message>
    <message>
        <source>The policy of the next run: what it may read, write, import and reach</source>
        <translation>Die Richtlinie des nächsten Laufs: was er lesen, schreiben, importieren und erreichen darf</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>The sandbox&apos;s own</source>
        <translation>Die eigene der Sandbox</translation>
    </message>
    <message>
        <source>Policy file…</source>
        <translation>Richtliniendatei…</translation>
    </message>
    <message>
        <source>&amp;Policy:</source>
        <translation>&amp;Richtlinie:</translation>
    </message>
    <message>
        <source>from the policy</source>
        <translation>laut Richtlinie</translation>
    </message>
    <message>
        <source>%1 (archived)</source>
        <translation>%1 (archiviert)</translation>
    </message>
    <message>
        <source>Sandbox %1 is gone: the next runs work in a fresh folder</source>
        <translation>Sandbox %1 gibt es nicht mehr: Die nächsten Läufe arbeiten in einem frischen Ordner</translation>
    </message>
    <message>
        <source>Policy for the next runs</source>
        <translation>Richtlinie für die nächsten Läufe</translation>
    </message>
    <message>
        <source>Policies (*.yaml *.yml);;All files (*)</source>
        <translation>Richtlinien (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Workspace</source>
        <translation>&amp;Arbeitsbereich</translation>
    </message>
    <message>
        <source>Demo store</source>
        <translation>Demo-Ablage</translation>
    </message>
    <message>
        <source>A demo store opens in a new window…</source>
        <translation>Eine Demo-Ablage öffnet sich in einem neuen Fenster…</translation>
    </message>
    <message>
        <source>The demo store was not opened: %1 did not start</source>
        <translation>Die Demo-Ablage wurde nicht geöffnet: %1 ist nicht gestartet</translation>
    </message>
    <message>
        <source>Cancelled: the demo store holds only what ran before</source>
        <translation>Abgebrochen: Die Demo-Ablage enthält nur, was bis dahin lief</translation>
    </message>
    <message>
        <source>%1[*] in sandbox %2 — Sandbench</source>
        <translation>%1[*] in Sandbox %2 — Sandbench</translation>
    </message>
    <message>
        <source>%1 (demo store)</source>
        <translation>%1 (Demo-Ablage)</translation>
    </message>
    <message>
        <source>Unsaved changes are not backed up: %1</source>
        <translation>Ungespeicherte Änderungen werden nicht gesichert: %1</translation>
    </message>
    <message>
        <source>Restored the unsaved snippet of the last session</source>
        <translation>Das ungespeicherte Snippet der letzten Sitzung wurde wiederhergestellt</translation>
    </message>
    <message>
        <source>Settings saved</source>
        <translation>Einstellungen gespeichert</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <source>%1 is a policy. Use it as the default policy of your runs?</source>
        <translation>%1 ist eine Richtlinie. Als Standardrichtlinie Ihrer Läufe verwenden?</translation>
    </message>
    <message>
        <source>It can be changed in Edit ▸ Settings.</source>
        <translation>Sie lässt sich in Bearbeiten ▸ Einstellungen ändern.</translation>
    </message>
    <message>
        <source>Runs use the policy %1</source>
        <translation>Läufe verwenden die Richtlinie %1</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Sandbench does not know how to open %1.</source>
        <translation>Sandbench weiß nicht, wie %1 zu öffnen ist.</translation>
    </message>
    <message>
        <source>Drop a snippet (.py, .sh), a rule set or policy (.yaml), or a dataset (.csv, .jsonl).</source>
        <translation>Legen Sie ein Snippet (.py, .sh), einen Regelsatz oder eine Richtlinie (.yaml) oder einen Datensatz (.csv, .jsonl) ab.</translation>
    </message>
    <message>
        <source>The window no longer follows the store: %1</source>
        <translation>Das Fenster folgt der Ablage nicht mehr: %1</translation>
    </message>
    <message>
        <source>Cannot read the store again: %1</source>
        <translation>Die Ablage kann nicht erneut gelesen werden: %1</translation>
    </message>
    <message>
        <source>The window does not follow changes made by other programs: %1</source>
        <translation>Das Fenster folgt keinen Änderungen anderer Programme: %1</translation>
    </message>
    <message>
        <source>Restored, but not backed up: %1</source>
        <translation>Wiederhergestellt, aber nicht gesichert: %1</translation>
    </message>
    <message>
        <source>Cluster jobs</source>
        <translation>Cluster-Jobs</translation>
    </message>
    <message>
        <source>Cluster jobs (%1)</source>
        <translation>Cluster-Jobs (%1)</translation>
    </message>
    <message>
        <source>Cancelled before the sandbox started: nothing ran.</source>
        <translation>Abgebrochen, bevor die Sandbox startete: nichts lief.</translation>
    </message>
    <message>
        <source>The run ended before its sandbox started: nothing ran.</source>
        <translation>Der Lauf endete, bevor seine Sandbox startete: nichts lief.</translation>
    </message>
</context>
<context>
    <name>sb::ui::MetricsDashboard</name>
    <message>
        <source>Runs</source>
        <translation>Ausführungen</translation>
    </message>
    <message>
        <source>OK rate</source>
        <translation>OK-Quote</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>Blockiert</translation>
    </message>
    <message>
        <source>Timeouts</source>
        <translation>Zeitüberschreitungen</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>Fehler</translation>
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
        <translation>Ausführungen nach Ergebnis</translation>
    </message>
    <message>
        <source>runs</source>
        <translation>Ausführungen</translation>
    </message>
    <message>
        <source>The runs the counters and charts count: those started in this span of time</source>
        <translation>Die Ausführungen, die Zähler und Diagramme erfassen: die in diesem Zeitraum gestarteten</translation>
    </message>
    <message>
        <source>Show every run again</source>
        <translation>Wieder alle Ausführungen zeigen</translation>
    </message>
    <message>
        <source>Runs of:</source>
        <translation>Ausführungen von:</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Run duration</source>
        <translation>Ausführungsdauer</translation>
    </message>
    <message>
        <source>Duration (ms)</source>
        <translation>Dauer (ms)</translation>
    </message>
    <message>
        <source>Runs over time</source>
        <translation>Ausführungen im Zeitverlauf</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Click a bar or point to show only those runs; right-click to save the chart</source>
        <translation>Auf einen Balken oder Punkt klicken, um nur diese Ausführungen zu zeigen; Rechtsklick, um das Diagramm zu speichern</translation>
    </message>
    <message>
        <source>Only %1 ✕</source>
        <translation>Nur %1 ✕</translation>
    </message>
    <message>
        <source>%1: %2 (%3 % of %4)</source>
        <translation>%1: %2 (%3 % von %4)</translation>
    </message>
    <message>
        <source>%1 ms: %2</source>
        <translation>%1 ms: %2</translation>
    </message>
    <message>
        <source>Time (%1)</source>
        <translation>Zeit (%1)</translation>
    </message>
    <message>
        <source>Time (%1 – %2)</source>
        <translation>Zeit (%1 – %2)</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>Datum</translation>
    </message>
    <message>
        <source>Runs per %1</source>
        <translation>Ausführungen je %1</translation>
    </message>
    <message>
        <source>%1 – %2: %3 %4</source>
        <translation>%1 – %2: %3 %4</translation>
    </message>
    <message>
        <source>%1 ms: %2 (%3 here)</source>
        <translation>%1 ms: %2 (%3 hier)</translation>
    </message>
    <message>
        <source>Run duration · p50 %1 · p95 %2 · p99 %3</source>
        <translation>Ausführungsdauer · p50 %1 · p95 %2 · p99 %3</translation>
    </message>
</context>
<context>
    <name>sb::ui::NewSandboxDialog</name>
    <message>
        <source>Give the sandbox a name.</source>
        <translation>Der Sandbox einen Namen geben.</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>New sandbox</source>
        <translation>Neue Sandbox</translation>
    </message>
    <message>
        <source>e.g. try-new-rules</source>
        <translation>z. B. neue-regeln-testen</translation>
    </message>
    <message>
        <source>main (production)</source>
        <translation>main (Produktion)</translation>
    </message>
    <message>
        <source>sandbox %1</source>
        <translation>Sandbox %1</translation>
    </message>
    <message>
        <source>checkpoint %1</source>
        <translation>Checkpoint %1</translation>
    </message>
    <message>
        <source>a folder to import…</source>
        <translation>ein zu importierender Ordner…</translation>
    </message>
    <message>
        <source>A sandbox&apos;s current workspace (unsaved changes are checkpointed first), a checkpoint, or a folder copied in (never mounted)</source>
        <translation>Der aktuelle Arbeitsbereich einer Sandbox (ungesicherte Änderungen werden vorher als Checkpoint gesichert), ein Checkpoint oder ein hineinkopierter Ordner (nie eingehängt)</translation>
    </message>
    <message>
        <source>folder to copy into the new workspace</source>
        <translation>Ordner, der in den neuen Arbeitsbereich kopiert wird</translation>
    </message>
    <message>
        <source>all files (e.g. rules/** data/*.csv)</source>
        <translation>alle Dateien (z. B. rules/** data/*.csv)</translation>
    </message>
    <message>
        <source>Only paths matching one of these globs (separated by spaces or commas)</source>
        <translation>Nur Pfade, die auf eines dieser Muster passen (durch Leerzeichen oder Kommas getrennt)</translation>
    </message>
    <message>
        <source>none (e.g. *.log build/**)</source>
        <translation>keine (z. B. *.log build/**)</translation>
    </message>
    <message>
        <source>Leave out paths matching one of these globs</source>
        <translation>Pfade auslassen, die auf eines dieser Muster passen</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>After this long the sandbox is destroyed by the next sweep (e.g. 2h, 1d12h, 7d)</source>
        <translation>Nach dieser Zeit löscht das nächste Aufräumen die Sandbox (z. B. 2h, 1d12h, 7d)</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>&amp;Aus:</translation>
    </message>
    <message>
        <source>&amp;Import:</source>
        <translation>&amp;Importieren:</translation>
    </message>
    <message>
        <source>&amp;Include:</source>
        <translation>&amp;Einschließen:</translation>
    </message>
    <message>
        <source>E&amp;xclude:</source>
        <translation>A&amp;usschließen:</translation>
    </message>
    <message>
        <source>&amp;Expires in:</source>
        <translation>&amp;Läuft ab in:</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Anlegen</translation>
    </message>
    <message>
        <source>Folder to import</source>
        <translation>Zu importierender Ordner</translation>
    </message>
    <message>
        <source>Choose the folder to import.</source>
        <translation>Den zu importierenden Ordner wählen.</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 ist kein Ordner.</translation>
    </message>
    <message>
        <source>none (e.g. 500M, 2G)</source>
        <translation>keine (z. B. 500M, 2G)</translation>
    </message>
    <message>
        <source>The most its workspace may hold: creation, checkpoints and runs are held to it</source>
        <translation>Was ihr Arbeitsbereich höchstens belegen darf: Anlegen, Checkpoints und Läufe halten sich daran</translation>
    </message>
    <message>
        <source>Unused this long, the sandbox is archived by the next sweep: its work is checkpointed, its folder removed until it is used again</source>
        <translation>So lange unbenutzt, wird die Sandbox beim nächsten Aufräumen archiviert: ihre Arbeit wird als Checkpoint gesichert, ihr Ordner bis zur nächsten Benutzung entfernt</translation>
    </message>
    <message>
        <source>&amp;Quota:</source>
        <translation>&amp;Kontingent:</translation>
    </message>
    <message>
        <source>Archive when i&amp;dle for:</source>
        <translation>Archivieren nach &amp;Ruhezeit:</translation>
    </message>
</context>
<context>
    <name>sb::ui::OutputPane</name>
    <message>
        <source>Output of the run appears here. Press Ctrl+Return to run the snippet.</source>
        <translation>Hier erscheint die Ausgabe der Ausführung. Strg+Eingabe führt das Snippet aus.</translation>
    </message>
    <message>
        <source>no run yet</source>
        <translation>noch keine Ausführung</translation>
    </message>
    <message>
        <source>Run a snippet to see its outcome, timings and isolation layers.</source>
        <translation>Führen Sie ein Snippet aus, um Ergebnis, Zeiten und Isolationsschichten zu sehen.</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>läuft…</translation>
    </message>
    <message>
        <source>Running in the sandbox…</source>
        <translation>Läuft in der Sandbox…</translation>
    </message>
    <message>
        <source>Running %1 in the sandbox…</source>
        <translation>%1 läuft in der Sandbox…</translation>
    </message>
    <message>
        <source>Duration %1 · CPU %2 · Peak RSS %3</source>
        <translation>Dauer %1 · CPU %2 · Spitzen-RSS %3</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>signal %1</source>
        <translation>Signal %1</translation>
    </message>
    <message>
        <source>[output truncated]</source>
        <translation>[Ausgabe gekürzt]</translation>
    </message>
    <message>
        <source>stdout</source>
        <translation>stdout</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>(leer)</translation>
    </message>
    <message>
        <source>stderr</source>
        <translation>stderr</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>blockiert</translation>
    </message>
    <message>
        <source>the program says (not observed by the sandbox)</source>
        <translation>das Programm sagt (nicht von der Sandbox beobachtet)</translation>
    </message>
    <message>
        <source>Isolation of the run</source>
        <translation>Isolation der Ausführung</translation>
    </message>
    <message>
        <source>hide layers</source>
        <translation>Schichten ausblenden</translation>
    </message>
    <message>
        <source>show layers</source>
        <translation>Schichten einblenden</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; isolation · %2 of %3 layers active</source>
        <translation>Isolation &lt;b&gt;%1&lt;/b&gt; · %2 von %3 Schichten aktiv</translation>
    </message>
    <message>
        <source>The isolation layers this run really had:</source>
        <translation>Die Isolationsschichten, die diese Ausführung tatsächlich hatte:</translation>
    </message>
    <message>
        <source>Blocked %1: %2</source>
        <translation>%1 blockiert: %2</translation>
    </message>
    <message numerus="yes">
        <source>(and %n more)</source>
        <translation>
            <numerusform>(und %n weiterer Eintrag)</numerusform>
            <numerusform>(und %n weitere Einträge)</numerusform>
        </translation>
    </message>
    <message>
        <source>demo…</source>
        <translation>Demo…</translation>
    </message>
    <message>
        <source>demo</source>
        <translation>Demo</translation>
    </message>
    <message>
        <source>The log below is the demo&apos;s; the snippet in the editor has not run.</source>
        <translation>Das Protokoll unten stammt aus der Demo; das Snippet im Editor wurde nicht ausgeführt.</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>nicht gelaufen</translation>
    </message>
</context>
<context>
    <name>sb::ui::PromotionDialog</name>
    <message>
        <source>Low risk</source>
        <translation>Geringes Risiko</translation>
    </message>
    <message>
        <source>Medium risk</source>
        <translation>Mittleres Risiko</translation>
    </message>
    <message>
        <source>High risk</source>
        <translation>Hohes Risiko</translation>
    </message>
    <message>
        <source>both modified</source>
        <translation>beidseitig geändert</translation>
    </message>
    <message>
        <source>modified and deleted</source>
        <translation>geändert und gelöscht</translation>
    </message>
    <message>
        <source>added on both sides</source>
        <translation>beidseitig hinzugefügt</translation>
    </message>
    <message>
        <source>type changed</source>
        <translation>Typ geändert</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Preview again</source>
        <translation>Erneut prüfen</translation>
    </message>
    <message>
        <source>Conflicts</source>
        <translation>Konflikte</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>Freigabe</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <source>Save patch…</source>
        <translation>Patch speichern…</translation>
    </message>
    <message>
        <source>Promote</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Promote %1</source>
        <translation>%1 übernehmen</translation>
    </message>
    <message>
        <source>Run the preview again, e.g. after editing the sandbox</source>
        <translation>Die Vorschau erneut ausführen, z. B. nach einer Änderung der Sandbox</translation>
    </message>
    <message>
        <source>Into:</source>
        <translation>Nach:</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>What each side did</source>
        <translation>Was jede Seite tat</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>Auflösung</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>Zeilen</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Compatibility checks</source>
        <translation>Verträglichkeitsprüfungen</translation>
    </message>
    <message>
        <source>who approves</source>
        <translation>wer freigibt</translation>
    </message>
    <message>
        <source>why this change may go in</source>
        <translation>warum diese Änderung übernommen werden darf</translation>
    </message>
    <message>
        <source>Approved by:</source>
        <translation>Freigegeben von:</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>Notiz:</translation>
    </message>
    <message>
        <source>Write the files the promotion would add or change, and its report, to a new or empty folder</source>
        <translation>Die Dateien, die die Übernahme hinzufügen oder ändern würde, samt Bericht in einen neuen oder leeren Ordner schreiben</translation>
    </message>
    <message>
        <source>Write the change as a git-style patch</source>
        <translation>Die Änderung als Patch im Git-Format schreiben</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <source>The promotion is being applied: wait until it ends.</source>
        <translation>Die Übernahme wird angewendet: bitte warten, bis sie endet.</translation>
    </message>
    <message>
        <source>Another promotion job is running: wait until it ends.</source>
        <translation>Ein anderer Übernahme-Vorgang läuft: bitte warten, bis er endet.</translation>
    </message>
    <message>
        <source>Previewing %1 → %2…</source>
        <translation>Vorschau %1 → %2…</translation>
    </message>
    <message>
        <source>Promoting %1 → %2…</source>
        <translation>Übernahme %1 → %2…</translation>
    </message>
    <message>
        <source>Exporting %1 → %2…</source>
        <translation>Export %1 → %2…</translation>
    </message>
    <message>
        <source>Writing the patch of %1 → %2…</source>
        <translation>Patch von %1 → %2 wird geschrieben…</translation>
    </message>
    <message>
        <source>Preview cancelled: press Preview again to run it.</source>
        <translation>Vorschau abgebrochen: „Erneut prüfen“ startet sie wieder.</translation>
    </message>
    <message>
        <source>Cancelled: nothing was changed.</source>
        <translation>Abgebrochen: nichts wurde geändert.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Nothing to promote: %1 already holds every change of %2.</source>
        <translation>Nichts zu übernehmen: %1 enthält bereits jede Änderung von %2.</translation>
    </message>
    <message>
        <source>Blocked: a compatibility check failed (below). Fix it in the sandbox and preview again.</source>
        <translation>Blockiert: eine Verträglichkeitsprüfung schlug fehl (unten). In der Sandbox beheben und erneut prüfen.</translation>
    </message>
    <message>
        <source>Ready to promote.</source>
        <translation>Bereit zur Übernahme.</translation>
    </message>
    <message>
        <source>Promoted: %1 now holds the change, as checkpoint %2.</source>
        <translation>Übernommen: %1 enthält die Änderung jetzt als Checkpoint %2.</translation>
    </message>
    <message>
        <source>Nothing to promote: %1 already holds every change.</source>
        <translation>Nichts zu übernehmen: %1 enthält bereits jede Änderung.</translation>
    </message>
    <message>
        <source>Not promoted: %1</source>
        <translation>Nicht übernommen: %1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>Exportiert nach %1</translation>
    </message>
    <message>
        <source>Patch written to %1</source>
        <translation>Patch geschrieben nach %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Risk: …</source>
        <translation>Risiko: …</translation>
    </message>
    <message>
        <source>none (the two share no checkpoint)</source>
        <translation>keiner (die beiden haben keinen gemeinsamen Checkpoint)</translation>
    </message>
    <message>
        <source>%1 + unsaved changes</source>
        <translation>%1 + ungesicherte Änderungen</translation>
    </message>
    <message>
        <source>Source &lt;b&gt;%1&lt;/b&gt; (%2) → target &lt;b&gt;%3&lt;/b&gt; (%4) · common ancestor %5</source>
        <translation>Quelle &lt;b&gt;%1&lt;/b&gt; (%2) → Ziel &lt;b&gt;%3&lt;/b&gt; (%4) · gemeinsamer Vorfahr %5</translation>
    </message>
    <message>
        <source>No risk rule applies.</source>
        <translation>Keine Risikoregel trifft zu.</translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>Warum: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 files&lt;/b&gt; change: %2 added, %3 modified, %4 removed · lines +%5 −%6 · bytes +%7 −%8</source>
        <translation>&lt;b&gt;%1 Dateien&lt;/b&gt; ändern sich: %2 hinzugefügt, %3 geändert, %4 entfernt · Zeilen +%5 −%6 · Bytes +%7 −%8</translation>
    </message>
    <message>
        <source>binary</source>
        <translation>binär</translation>
    </message>
    <message>
        <source>too large</source>
        <translation>zu groß</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <source>No policy files to check.</source>
        <translation>Keine Richtliniendateien zu prüfen.</translation>
    </message>
    <message>
        <source>Unresolved</source>
        <translation>Ungelöst</translation>
    </message>
    <message>
        <source>Take source (%1)</source>
        <translation>Quelle nehmen (%1)</translation>
    </message>
    <message>
        <source>Take target (%1)</source>
        <translation>Ziel nehmen (%1)</translation>
    </message>
    <message>
        <source>Both %1 and %2 changed these paths since their common ancestor. Resolve each: edit the sandbox (e.g. take the target&apos;s version there and redo your part), then press Preview again — or settle a path here by taking the source&apos;s or the target&apos;s version wholesale.</source>
        <translation>Sowohl %1 als auch %2 haben diese Pfade seit ihrem gemeinsamen Vorfahren geändert. Jeden auflösen: die Sandbox bearbeiten (z. B. dort die Fassung des Ziels nehmen und den eigenen Teil neu machen), dann „Erneut prüfen“ drücken — oder einen Pfad hier entscheiden, indem die Fassung der Quelle oder des Ziels ganz genommen wird.</translation>
    </message>
    <message>
        <source>Conflicts settled</source>
        <translation>Konflikte entschieden</translation>
    </message>
    <message>
        <source>Every conflict is settled by the side chosen; the promotion records the choices.</source>
        <translation>Jeder Konflikt ist durch die gewählte Seite entschieden; die Übernahme hält die Wahl fest.</translation>
    </message>
    <message numerus="yes">
        <source>The diff of this file is not shown: the promotion changes more than %n files.</source>
        <translation>
            <numerusform>Der Diff dieser Datei wird nicht gezeigt: die Übernahme ändert mehr als %n Datei.</numerusform>
            <numerusform>Der Diff dieser Datei wird nicht gezeigt: die Übernahme ändert mehr als %n Dateien.</numerusform>
        </translation>
    </message>
    <message>
        <source>Press Preview again to see this file&apos;s diff.</source>
        <translation>„Erneut prüfen“ drücken, um den Diff dieser Datei zu sehen.</translation>
    </message>
    <message>
        <source>Name who approves.</source>
        <translation>Angeben, wer freigibt.</translation>
    </message>
    <message>
        <source>Write a note: why this change may go in.</source>
        <translation>Eine Notiz schreiben: warum diese Änderung übernommen werden darf.</translation>
    </message>
    <message>
        <source>Approval (optional)</source>
        <translation>Freigabe (optional)</translation>
    </message>
    <message>
        <source>The approval is recorded in the audit log.</source>
        <translation>Die Freigabe wird im Prüfprotokoll festgehalten.</translation>
    </message>
    <message>
        <source>Optional: an approval given here is recorded.</source>
        <translation>Optional: eine hier erteilte Freigabe wird festgehalten.</translation>
    </message>
    <message>
        <source>Resolve the conflicts first</source>
        <translation>Zuerst die Konflikte auflösen</translation>
    </message>
    <message>
        <source>Apply the change to %1, atomically, as a &apos;promote&apos; checkpoint</source>
        <translation>Die Änderung atomar auf %1 anwenden, als Checkpoint „promote“</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Export the promotion to a new or empty folder</source>
        <translation>Die Übernahme in einen neuen oder leeren Ordner exportieren</translation>
    </message>
    <message>
        <source>Save the promotion as a patch</source>
        <translation>Die Übernahme als Patch speichern</translation>
    </message>
    <message>
        <source>Patches (*.patch *.diff)</source>
        <translation>Patches (*.patch *.diff)</translation>
    </message>
    <message>
        <source>edit the sandbox</source>
        <translation>die Sandbox bearbeiten</translation>
    </message>
    <message>
        <source>Blocked by a conflict: see below how to resolve it.</source>
        <translation>Blockiert durch einen Konflikt: unten steht, wie er aufzulösen ist.</translation>
    </message>
    <message>
        <source>Blocked by %1 conflicts: see below how to resolve them.</source>
        <translation>Blockiert durch %1 Konflikte: unten steht, wie sie aufzulösen sind.</translation>
    </message>
    <message>
        <source>A conflict blocks the promotion</source>
        <translation>Ein Konflikt blockiert die Übernahme</translation>
    </message>
    <message>
        <source>%1 conflicts block the promotion</source>
        <translation>%1 Konflikte blockieren die Übernahme</translation>
    </message>
    <message>
        <source>Press Preview again to see this conflict&apos;s diff.</source>
        <translation>„Erneut prüfen“ drücken, um den Diff dieses Konflikts zu sehen.</translation>
    </message>
    <message>
        <source>%1: name who approves and write a note to promote.</source>
        <translation>%1: Angeben, wer freigibt, und eine Notiz schreiben, um zu übernehmen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rule impact&lt;/b&gt;: %1 changes the decision of &lt;b&gt;%2 of %3&lt;/b&gt; records (%4 %) in %5</source>
        <translation>&lt;b&gt;Auswirkung der Regeln&lt;/b&gt;: %1 ändert die Entscheidung von &lt;b&gt;%2 von %3&lt;/b&gt; Datensätzen (%4 %) in %5</translation>
    </message>
    <message>
        <source>&lt;b&gt;New rule set&lt;/b&gt; %1: no current version in %2 to count flipped decisions against; it decides from now on.</source>
        <translation>&lt;b&gt;Neuer Regelsatz&lt;/b&gt; %1: Keine aktuelle Fassung in %2, gegen die geänderte Entscheidungen gezählt werden könnten; er entscheidet ab jetzt.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rule impact not measured&lt;/b&gt; for %1: sandbox %2 refers to no dataset (&lt;tt&gt;sandbench sandbox set %2 --dataset NAME&lt;/tt&gt;).</source>
        <translation>&lt;b&gt;Auswirkung der Regeln nicht gemessen&lt;/b&gt; für %1: Sandbox %2 verweist auf keinen Datensatz (&lt;tt&gt;sandbench sandbox set %2 --dataset NAME&lt;/tt&gt;).</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rule impact not measured&lt;/b&gt; for %1: it does not compile against %2 (see the checks).</source>
        <translation>&lt;b&gt;Auswirkung der Regeln nicht gemessen&lt;/b&gt; für %1: Er lässt sich gegen %2 nicht kompilieren (siehe die Prüfungen).</translation>
    </message>
    <message>
        <source>Binary file %1</source>
        <translation>Binärdatei %1</translation>
    </message>
    <message>
        <source>%1: a name and a note are required to promote.</source>
        <translation>%1: Zum Übernehmen sind ein Name und eine Notiz nötig.</translation>
    </message>
    <message>
        <source>Approval (required: %1)</source>
        <translation>Freigabe (erforderlich: %1)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 file&lt;/b&gt; changes: %2 added, %3 modified, %4 removed · lines +%5 −%6 · bytes +%7 −%8</source>
        <translation>&lt;b&gt;%1 Datei&lt;/b&gt; ändert sich: %2 hinzugefügt, %3 geändert, %4 entfernt · Zeilen +%5 −%6 · Bytes +%7 −%8</translation>
    </message>
    <message>
        <source>low</source>
        <translation>niedrig</translation>
    </message>
    <message>
        <source>medium</source>
        <translation>mittel</translation>
    </message>
    <message>
        <source>high</source>
        <translation>hoch</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>sb::ui::PromotionJobRunner</name>
    <message>
        <source>Folder %1: its permissions or presence changed.</source>
        <translation>Ordner %1: seine Rechte oder sein Vorhandensein haben sich geändert.</translation>
    </message>
    <message>
        <source>Binary files differ: %1</source>
        <translation>Binärdateien unterscheiden sich: %1</translation>
    </message>
    <message>
        <source>%1 is too large to show as text.</source>
        <translation>%1 ist zu groß, um als Text gezeigt zu werden.</translation>
    </message>
    <message>
        <source>Only the permissions of %1 changed.</source>
        <translation>Nur die Rechte von %1 haben sich geändert.</translation>
    </message>
    <message>
        <source>not hashed: larger than %1 bytes</source>
        <translation>nicht gehasht: größer als %1 Bytes</translation>
    </message>
    <message>
        <source>%1: %2 bytes, %3</source>
        <translation>%1: %2 Bytes, %3</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>A binary file cannot be shown as text: compare its checksum with the file you expect, or export the promotion to inspect it.</source>
        <translation>Eine Binärdatei kann nicht als Text gezeigt werden: Vergleichen Sie ihre Prüfsumme mit der erwarteten Datei oder exportieren Sie die Übernahme, um sie zu untersuchen.</translation>
    </message>
</context>
<context>
    <name>sb::ui::RecoveryBar</name>
    <message>
        <source>&amp;Restore</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>D&amp;iscard</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message numerus="yes">
        <source>The last session left an untitled snippet unsaved (%n line(s)). Restore it?</source>
        <translation>
            <numerusform>Die letzte Sitzung hat ein unbenanntes Snippet ungespeichert hinterlassen (%n Zeile). Wiederherstellen?</numerusform>
            <numerusform>Die letzte Sitzung hat ein unbenanntes Snippet ungespeichert hinterlassen (%n Zeilen). Wiederherstellen?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The last session left changes to %1 unsaved (%n line(s)). Restore them?</source>
        <translation>
            <numerusform>Die letzte Sitzung hat Änderungen an %1 ungespeichert hinterlassen (%n Zeile). Wiederherstellen?</numerusform>
            <numerusform>Die letzte Sitzung hat Änderungen an %1 ungespeichert hinterlassen (%n Zeilen). Wiederherstellen?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sb::ui::ReplayPolicyDialog</name>
    <message>
        <source>Replay under a policy</source>
        <translation>Unter einer Richtlinie erneut abspielen</translation>
    </message>
    <message>
        <source>Session %1&apos;s calls run again, in order, from its first checkpoint in a new sandbox, ruled by the policy chosen here. The replay is recorded as a session of its own and compared with the original step by step.</source>
        <translation>Die Aufrufe von Sitzung %1 laufen der Reihe nach erneut, ab ihrem ersten Checkpoint in einer neuen Sandbox, bestimmt von der hier gewählten Richtlinie. Die Wiederholung wird als eigene Sitzung aufgezeichnet und Schritt für Schritt mit dem Original verglichen.</translation>
    </message>
    <message>
        <source>preset %1</source>
        <translation>Vorlage %1</translation>
    </message>
    <message>
        <source>Policy file…</source>
        <translation>Richtliniendatei…</translation>
    </message>
    <message>
        <source>A policy YAML file (its agent: section rules the calls)</source>
        <translation>Eine Richtlinien-YAML-Datei (ihr Abschnitt agent: bestimmt über die Aufrufe)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Policy file</source>
        <translation>Richtliniendatei</translation>
    </message>
    <message>
        <source>Policies (*.yaml *.yml);;All files (*)</source>
        <translation>Richtlinien (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Policy:</source>
        <translation>Richtlinie:</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>Datei:</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Abspielen</translation>
    </message>
    <message>
        <source>This policy cannot rule a replay: %1</source>
        <translation>Diese Richtlinie kann keine Wiederholung bestimmen: %1</translation>
    </message>
</context>
<context>
    <name>sb::ui::RuleSetEditor</name>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>Warnung</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesCharts</name>
    <message>
        <source>Evaluate or compare to see decisions here</source>
        <translation>Auswerten oder vergleichen, um hier Entscheidungen zu sehen</translation>
    </message>
    <message>
        <source>Decisions per rule set</source>
        <translation>Entscheidungen je Regelsatz</translation>
    </message>
    <message>
        <source>Impact rate</source>
        <translation>Änderungsquote</translation>
    </message>
    <message>
        <source>Hits per rule (the %1 with the most of %2)</source>
        <translation>Treffer je Regel (die %1 häufigsten von %2)</translation>
    </message>
    <message>
        <source>Hits per rule</source>
        <translation>Treffer je Regel</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Präzision</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>Trefferquote</translation>
    </message>
    <message>
        <source>%1 (baseline)</source>
        <translation>%1 (Basis)</translation>
    </message>
    <message>
        <source>Change against %1, per decision</source>
        <translation>Änderung gegenüber %1, je Entscheidung</translation>
    </message>
    <message>
        <source>%1 → %2: −%3</source>
        <translation>%1 → %2: −%3</translation>
    </message>
    <message>
        <source>%1 → %2: +%3</source>
        <translation>%1 → %2: +%3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2: %3 records (%4 with %5 → %6)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, %2: %3 Datensätze (%4 mit %5 → %6)</translation>
    </message>
    <message>
        <source>No decision changes against %1</source>
        <translation>Keine geänderten Entscheidungen gegenüber %1</translation>
    </message>
    <message>
        <source>Records, variant minus baseline</source>
        <translation>Datensätze, Variante minus Basis</translation>
    </message>
    <message>
        <source>Decision changes from %1 (the %2 most frequent of %3)</source>
        <translation>Geänderte Entscheidungen ab %1 (die %2 häufigsten von %3)</translation>
    </message>
    <message>
        <source>Decision changes from %1</source>
        <translation>Geänderte Entscheidungen ab %1</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 records go from %3 to %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2 Datensätze wechseln von %3 zu %4</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <source>Impact rate per variant</source>
        <translation>Änderungsquote je Variante</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 of %3 records change decision (%4); %5 more change only their score</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2 von %3 Datensätzen ändern ihre Entscheidung (%4); %5 weitere ändern nur ihren Score</translation>
    </message>
    <message>
        <source>% of records whose decision changes</source>
        <translation>% der Datensätze, deren Entscheidung sich ändert</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2: %3 records (%4)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, %2: %3 Datensätze (%4)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; has no rule %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; hat keine Regel %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, %2: matched %3 records, decided %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, %2: %3 Datensätze getroffen, %4 entschieden</translation>
    </message>
    <message>
        <source>Records the rule matched</source>
        <translation>Von der Regel getroffene Datensätze</translation>
    </message>
    <message>
        <source>Scores of records a rule decided</source>
        <translation>Scores der von einer Regel entschiedenen Datensätze</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, score %2–%3: %4 records</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, Score %2–%3: %4 Datensätze</translation>
    </message>
    <message>
        <source>Score, in bands of ten from the number shown</source>
        <translation>Score, in Zehnerbändern ab der gezeigten Zahl</translation>
    </message>
    <message>
        <source>Flagged records against the label &apos;%1&apos;</source>
        <translation>Markierte Datensätze gegenüber dem Label „%1“</translation>
    </message>
    <message>
        <source>undefined</source>
        <translation>undefiniert</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: precision %2 (%3 flagged records are positives, %4 are not)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: Präzision %2 (%3 markierte Datensätze sind positiv, %4 nicht)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: recall %2 (%3 of %4 positives flagged)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: Trefferquote %2 (%3 von %4 positiven markiert)</translation>
    </message>
    <message>
        <source>Percent</source>
        <translation>Prozent</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesJobRunner</name>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesLexer</name>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>String</source>
        <translation>Zeichenkette</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>Zahl</translation>
    </message>
    <message>
        <source>Punctuation</source>
        <translation>Satzzeichen</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Keyword</source>
        <translation>Schlüsselwort</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesWorkspace</name>
    <message>
        <source>Open demo</source>
        <translation>Demo öffnen</translation>
    </message>
    <message>
        <source>Open the demo rule sets (current, variant A, variant B) and the demo transactions</source>
        <translation>Die Demo-Regelsätze (current, Variante A, Variante B) und die Demo-Transaktionen öffnen</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>Öffnen…</translation>
    </message>
    <message>
        <source>Open a rule set (YAML) in a new tab; the first tab is the baseline</source>
        <translation>Einen Regelsatz (YAML) in einem neuen Tab öffnen; der erste Tab ist die Basis</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Save the rule set of the current tab</source>
        <translation>Den Regelsatz des aktuellen Tabs speichern</translation>
    </message>
    <message>
        <source>Data file…</source>
        <translation>Datendatei…</translation>
    </message>
    <message>
        <source>Data folder…</source>
        <translation>Datenordner…</translation>
    </message>
    <message>
        <source>Read a folder&apos;s CSV or JSON Lines files (its parts, in name order) as one dataset</source>
        <translation>Die CSV- oder JSON-Lines-Dateien eines Ordners (seine Teile, nach Namen geordnet) als einen Datensatz lesen</translation>
    </message>
    <message>
        <source>Open data folder</source>
        <translation>Datenordner öffnen</translation>
    </message>
    <message>
        <source>Read a CSV or JSON Lines file as the dataset</source>
        <translation>Eine CSV- oder JSON-Lines-Datei als Datensatz lesen</translation>
    </message>
    <message>
        <source>Demo data</source>
        <translation>Demo-Daten</translation>
    </message>
    <message>
        <source>Use the demo transactions (5,000 card payments with a fraud label)</source>
        <translation>Die Demo-Transaktionen verwenden (5.000 Kartenzahlungen mit Betrugs-Label)</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>Auswerten</translation>
    </message>
    <message>
        <source>Evaluate the current tab&apos;s rule set on the dataset</source>
        <translation>Den Regelsatz des aktuellen Tabs auf dem Datensatz auswerten</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>Compare the first tab (baseline) with every other tab (variants) on the dataset</source>
        <translation>Den ersten Tab (Basis) auf dem Datensatz mit jedem anderen Tab (Varianten) vergleichen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Cancel the running job</source>
        <translation>Die laufende Aufgabe abbrechen</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Save the changed decisions of the shown variant as CSV</source>
        <translation>Die geänderten Entscheidungen der gezeigten Variante als CSV speichern</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Bericht exportieren…</translation>
    </message>
    <message>
        <source>Save the comparison as an HTML report with its charts</source>
        <translation>Den Vergleich als HTML-Bericht mit seinen Diagrammen speichern</translation>
    </message>
    <message>
        <source>Import into store…</source>
        <translation>In die Ablage importieren…</translation>
    </message>
    <message>
        <source>Import a CSV or JSON Lines file into the store as an immutable snapshot, then use it</source>
        <translation>Eine CSV- oder JSON-Lines-Datei als unveränderlichen Snapshot in die Ablage importieren und dann verwenden</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <source>Stored snapshots</source>
        <translation>Gespeicherte Snapshots</translation>
    </message>
    <message>
        <source>Choose the records to evaluate on: the demo, a file, or a stored snapshot</source>
        <translation>Die Datensätze für die Auswertung wählen: die Demo, eine Datei oder einen gespeicherten Snapshot</translation>
    </message>
    <message>
        <source>No dataset</source>
        <translation>Kein Datensatz</translation>
    </message>
    <message>
        <source>Filter: record, decision or rule</source>
        <translation>Filter: Datensatz, Entscheidung oder Regel</translation>
    </message>
    <message>
        <source>Variant:</source>
        <translation>Variante:</translation>
    </message>
    <message>
        <source>Select a record to see why it got its decisions</source>
        <translation>Einen Datensatz wählen, um zu sehen, warum er seine Entscheidungen bekam</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <source>Changed decisions</source>
        <translation>Geänderte Entscheidungen</translation>
    </message>
    <message>
        <source>Reading data…</source>
        <translation>Daten werden gelesen…</translation>
    </message>
    <message>
        <source>Importing…</source>
        <translation>Wird importiert…</translation>
    </message>
    <message>
        <source>Evaluating…</source>
        <translation>Wird ausgewertet…</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>Wird verglichen…</translation>
    </message>
    <message>
        <source>Dataset: %1 — %2 records, %3 fields</source>
        <translation>Datensatz: %1 — %2 Datensätze, %3 Felder</translation>
    </message>
    <message>
        <source>, %1 bad rows skipped (first: line %2: %3)</source>
        <translation>, %1 fehlerhafte Zeilen übersprungen (erste: Zeile %2: %3)</translation>
    </message>
    <message>
        <source>, %1 bad rows skipped (first: %4, line %2: %3)</source>
        <translation>, %1 fehlerhafte Zeilen übersprungen (erste: %4, Zeile %2: %3)</translation>
    </message>
    <message>
        <source>Data read</source>
        <translation>Daten gelesen</translation>
    </message>
    <message>
        <source>(none yet: import a file)</source>
        <translation>(noch keine: eine Datei importieren)</translation>
    </message>
    <message>
        <source>Import dataset</source>
        <translation>Datensatz importieren</translation>
    </message>
    <message>
        <source>Data (*.csv *.jsonl *.ndjson);;All files (*)</source>
        <translation>Daten (*.csv *.jsonl *.ndjson);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Name of the snapshot (letters, digits, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;):</source>
        <translation>Name des Snapshots (Buchstaben, Ziffern, „_“, „-“, „.“):</translation>
    </message>
    <message>
        <source>✔ No problems</source>
        <translation>✔ Keine Probleme</translation>
    </message>
    <message>
        <source>%1 error(s), %2 warning(s)</source>
        <translation>%1 Fehler, %2 Warnung(en)</translation>
    </message>
    <message>
        <source>Open rule set</source>
        <translation>Regelsatz öffnen</translation>
    </message>
    <message>
        <source>Rule sets (*.yaml *.yml);;All files (*)</source>
        <translation>Regelsätze (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Save rule set</source>
        <translation>Regelsatz speichern</translation>
    </message>
    <message>
        <source>Rule sets (*.yaml *.yml)</source>
        <translation>Regelsätze (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Open dataset</source>
        <translation>Datensatz öffnen</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2 records: %3 (%4 s)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; auf %2 Datensätzen: %3 (%4 s)</translation>
    </message>
    <message>
        <source>Evaluated %1</source>
        <translation>%1 ausgewertet</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 changed (%3)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2 geändert (%3)</translation>
    </message>
    <message>
        <source>Against &lt;b&gt;%1&lt;/b&gt; on %2 records — %3</source>
        <translation>Gegen &lt;b&gt;%1&lt;/b&gt; auf %2 Datensätzen — %3</translation>
    </message>
    <message numerus="yes">
        <source>Compared %n variant(s)</source>
        <translation>
            <numerusform>%n Variante verglichen</numerusform>
            <numerusform>%n Varianten verglichen</numerusform>
        </translation>
    </message>
    <message>
        <source>the default</source>
        <translation>die Vorgabe</translation>
    </message>
    <message>
        <source>&lt;h3&gt;%1: &lt;span style=&apos;color:#1f4e9e&apos;&gt;%2&lt;/span&gt; (score %3) by %4&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;%1: &lt;span style=&apos;color:#1f4e9e&apos;&gt;%2&lt;/span&gt; (Score %3) durch %4&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>matched</source>
        <translation>zutreffend</translation>
    </message>
    <message>
        <source> — decided</source>
        <translation> — entschied</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Record %1&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Datensatz %1&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Export changed decisions</source>
        <translation>Geänderte Entscheidungen exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1 exportiert</translation>
    </message>
    <message>
        <source>Sandbench rules report</source>
        <translation>Sandbench-Regelbericht</translation>
    </message>
    <message>
        <source>&lt;h1&gt;Rules report&lt;/h1&gt;&lt;p&gt;%1&lt;/p&gt;&lt;p&gt;Dataset: %2, %3 records.&lt;/p&gt;</source>
        <translation>&lt;h1&gt;Regelbericht&lt;/h1&gt;&lt;p&gt;%1&lt;/p&gt;&lt;p&gt;Datensatz: %2, %3 Datensätze.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Variants&lt;/h2&gt;&lt;table&gt;&lt;tr&gt;&lt;th&gt;Variant&lt;/th&gt;&lt;th&gt;Changed&lt;/th&gt;&lt;th&gt;Impact rate&lt;/th&gt;&lt;th&gt;Precision&lt;/th&gt;&lt;th&gt;Recall&lt;/th&gt;&lt;/tr&gt;</source>
        <translation>&lt;h2&gt;Varianten&lt;/h2&gt;&lt;table&gt;&lt;tr&gt;&lt;th&gt;Variante&lt;/th&gt;&lt;th&gt;Geändert&lt;/th&gt;&lt;th&gt;Änderungsquote&lt;/th&gt;&lt;th&gt;Präzision&lt;/th&gt;&lt;th&gt;Trefferquote&lt;/th&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Charts&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Diagramme&lt;/h2&gt;</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>Bericht exportieren</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>No match: %1</source>
        <translation>Nicht zutreffend: %1</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Exportieren</translation>
    </message>
    <message>
        <source>Save the changed decisions as CSV, or the comparison as an HTML report</source>
        <translation>Die geänderten Entscheidungen als CSV oder den Vergleich als HTML-Bericht speichern</translation>
    </message>
    <message>
        <source>No rule set open</source>
        <translation>Kein Regelsatz geöffnet</translation>
    </message>
    <message>
        <source>Rule sets decide what happens to each record of a dataset. Open the demo to compare the current rule set with two variants on 5,000 card payments, or open your own rule sets (YAML): the first tab is the baseline, every other tab a variant compared with it.</source>
        <translation>Regelsätze entscheiden, was mit jedem Eintrag eines Datensatzes geschieht. Öffnen Sie die Demo, um den aktuellen Regelsatz an 5.000 Kartenzahlungen mit zwei Varianten zu vergleichen, oder öffnen Sie eigene Regelsätze (YAML): Der erste Tab ist die Basis, jeder weitere Tab eine damit verglichene Variante.</translation>
    </message>
    <message>
        <source>Open the demo</source>
        <translation>Die Demo öffnen</translation>
    </message>
    <message>
        <source>Open a rule set…</source>
        <translation>Einen Regelsatz öffnen…</translation>
    </message>
    <message>
        <source>Close this rule set</source>
        <translation>Diesen Regelsatz schließen</translation>
    </message>
    <message>
        <source>Close rule set</source>
        <translation>Regelsatz schließen</translation>
    </message>
    <message>
        <source>baseline</source>
        <translation>Basis</translation>
    </message>
    <message>
        <source>The baseline: Compare measures every other tab against this rule set</source>
        <translation>Die Basis: „Vergleichen“ misst jeden anderen Tab an diesem Regelsatz</translation>
    </message>
    <message>
        <source>%1: the baseline</source>
        <translation>%1: die Basis</translation>
    </message>
    <message>
        <source>%1: a variant, compared with the baseline</source>
        <translation>%1: eine Variante, verglichen mit der Basis</translation>
    </message>
</context>
<context>
    <name>sb::ui::RunHistoryModel</name>
    <message>
        <source>exit code %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>snippet</source>
        <translation>Snippet</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Detail</translation>
    </message>
    <message>
        <source>Ran in a fresh private folder, in no sandbox</source>
        <translation>Lief in einem frischen privaten Ordner, in keiner Sandbox</translation>
    </message>
    <message>
        <source>Ran in sandbox %1&apos;s workspace</source>
        <translation>Lief im Arbeitsbereich der Sandbox %1</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
</context>
<context>
    <name>sb::ui::SandboxListModel</name>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>(production)</source>
        <translation>(Produktion)</translation>
    </message>
    <message>
        <source>%1
workspace: %2
head: %3
owner: %4</source>
        <translation>%1
Arbeitsbereich: %2
Head: %3
Besitzer: %4</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Angelegt</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>archived</source>
        <translation>archiviert</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>%1, idle %2 of %3</source>
        <translation>%1, ruht seit %2 von %3</translation>
    </message>
    <message>
        <source>%1, idle %2</source>
        <translation>%1, ruht seit %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>%1 (sample %2 of it: %3)</source>
        <translation>%1 (Stichprobe %2 davon: %3)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>preset %1</source>
        <translation>Vorlage %1</translation>
    </message>
    <message>
        <source>%1 · %2 · usage %3 · policy %4 · datasets %5</source>
        <translation>%1 · %2 · belegt %3 · Richtlinie %4 · Datensätze %5</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1
Its workspace folder is removed until its next use, which writes its head checkpoint back.</source>
        <translation>%1
Ihr Arbeitsordner ist bis zur nächsten Benutzung entfernt, die ihren letzten Checkpoint zurückschreibt.</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>Belegt</translation>
    </message>
</context>
<context>
    <name>sb::ui::SandboxSettingsDialog</name>
    <message>
        <source>Sandbox settings</source>
        <translation>Sandbox-Einstellungen</translation>
    </message>
    <message>
        <source>The most its workspace may hold: checkpoints, restores and runs are held to it</source>
        <translation>Das Höchste, was ihr Arbeitsbereich fassen darf: Checkpoints, Wiederherstellungen und Läufe halten sich daran</translation>
    </message>
    <message>
        <source>Governance of &lt;b&gt;%1&lt;/b&gt;. A change applies from now on and is recorded in the audit log.</source>
        <translation>Verwaltung von &lt;b&gt;%1&lt;/b&gt;. Eine Änderung gilt ab jetzt und wird im Prüfprotokoll festgehalten.</translation>
    </message>
    <message>
        <source>&amp;Quota:</source>
        <translation>&amp;Kontingent:</translation>
    </message>
    <message>
        <source>Archive when i&amp;dle for:</source>
        <translation>Archivieren nach &amp;Ruhezeit:</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionCompare</name>
    <message>
        <source>Compare agent sessions</source>
        <translation>Agent-Sitzungen vergleichen</translation>
    </message>
    <message>
        <source>▲ Previous difference</source>
        <translation>▲ Vorheriger Unterschied</translation>
    </message>
    <message>
        <source>The previous step that differs (Shift+F3)</source>
        <translation>Der vorherige abweichende Schritt (Umschalt+F3)</translation>
    </message>
    <message>
        <source>▼ Next difference</source>
        <translation>▼ Nächster Unterschied</translation>
    </message>
    <message>
        <source>The next step that differs (F3)</source>
        <translation>Der nächste abweichende Schritt (F3)</translation>
    </message>
    <message>
        <source>Nothing compared yet</source>
        <translation>Noch nichts verglichen</translation>
    </message>
    <message>
        <source>Replaying session %1 under %2…</source>
        <translation>Sitzung %1 wird unter %2 erneut abgespielt…</translation>
    </message>
    <message>
        <source>Reading sessions %1 and %2…</source>
        <translation>Sitzungen %1 und %2 werden gelesen…</translation>
    </message>
    <message>
        <source>Replay under a policy</source>
        <translation>Unter einer Richtlinie erneut abspielen</translation>
    </message>
    <message>
        <source>Original: %1</source>
        <translation>Original: %1</translation>
    </message>
    <message>
        <source>Left: %1</source>
        <translation>Links: %1</translation>
    </message>
    <message>
        <source>Replay: %1</source>
        <translation>Wiederholung: %1</translation>
    </message>
    <message>
        <source>Right: %1</source>
        <translation>Rechts: %1</translation>
    </message>
    <message>
        <source>The replay failed: %1</source>
        <translation>Die Wiederholung ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Cannot compare the sessions: %1</source>
        <translation>Die Sitzungen können nicht verglichen werden: %1</translation>
    </message>
    <message>
        <source>Replay recorded as session %1 (sandbox %2).</source>
        <translation>Wiederholung als Sitzung %1 aufgezeichnet (Sandbox %2).</translation>
    </message>
    <message>
        <source>Replay of session %1</source>
        <translation>Wiederholung von Sitzung %1</translation>
    </message>
    <message>
        <source>%1 of %2 steps differ</source>
        <translation>%1 von %2 Schritten weichen ab</translation>
    </message>
    <message>
        <source>Select a step to see both sides in full.</source>
        <translation>Einen Schritt wählen, um beide Seiten vollständig zu sehen.</translation>
    </message>
    <message>
        <source>No difference after this step.</source>
        <translation>Kein Unterschied nach diesem Schritt.</translation>
    </message>
    <message>
        <source>No difference before this step.</source>
        <translation>Kein Unterschied vor diesem Schritt.</translation>
    </message>
    <message>
        <source>Cannot read step %1: %2</source>
        <translation>Schritt %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%v/%m steps</source>
        <translation>%v/%m Schritte</translation>
    </message>
    <message>
        <source>Cancel replay</source>
        <translation>Wiederholung abbrechen</translation>
    </message>
    <message>
        <source>Stop the replay after the step it is on; it is recorded as interrupted</source>
        <translation>Die Wiederholung nach dem aktuellen Schritt anhalten; sie wird als unterbrochen aufgezeichnet</translation>
    </message>
    <message>
        <source>Stopping the replay after the step it is on…</source>
        <translation>Die Wiederholung wird nach dem aktuellen Schritt angehalten…</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionCompareModel</name>
    <message>
        <source>only on the left</source>
        <translation>nur links</translation>
    </message>
    <message>
        <source>only on the right</source>
        <translation>nur rechts</translation>
    </message>
    <message>
        <source>another call</source>
        <translation>anderer Aufruf</translation>
    </message>
    <message>
        <source>verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>now blocked</source>
        <translation>jetzt blockiert</translation>
    </message>
    <message>
        <source>now needs approval</source>
        <translation>braucht jetzt Freigabe</translation>
    </message>
    <message>
        <source>now allowed</source>
        <translation>jetzt erlaubt</translation>
    </message>
    <message>
        <source>ends the session</source>
        <translation>beendet die Sitzung</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>nicht erreicht</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>Step %1 differs: %2</source>
        <translation>Schritt %1 weicht ab: %2</translation>
    </message>
    <message>
        <source>No such step in this session</source>
        <translation>Diesen Schritt gibt es in dieser Sitzung nicht</translation>
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
        <translation>Tool</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionControlBar</name>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Let the waiting call go on and pause before the next one</source>
        <translation>Den wartenden Aufruf durchlassen und vor dem nächsten anhalten</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Let the waiting call go on and stop pausing (breakpoints still hold)</source>
        <translation>Den wartenden Aufruf durchlassen und nicht mehr anhalten (Haltepunkte gelten weiter)</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Pause before the agent&apos;s next call</source>
        <translation>Vor dem nächsten Aufruf des Agenten anhalten</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>Freigeben</translation>
    </message>
    <message>
        <source>Let the call waiting for approval go on</source>
        <translation>Den auf Freigabe wartenden Aufruf durchlassen</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>Refuse the waiting call: the agent gets an error</source>
        <translation>Den wartenden Aufruf ablehnen: Der Agent erhält einen Fehler</translation>
    </message>
    <message>
        <source>Edit arguments…</source>
        <translation>Argumente bearbeiten…</translation>
    </message>
    <message>
        <source>Go on with the waiting call with other arguments (recorded as edited)</source>
        <translation>Den wartenden Aufruf mit anderen Argumenten fortsetzen (als bearbeitet aufgezeichnet)</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Pause before calls of this tool, or calls this CEL condition holds for</source>
        <translation>Vor Aufrufen dieses Tools anhalten oder vor Aufrufen, für die diese CEL-Bedingung gilt</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Remove every breakpoint</source>
        <translation>Alle Haltepunkte entfernen</translation>
    </message>
    <message>
        <source>Break on a tool (name or glob) or a CEL condition</source>
        <translation>Anhalten bei einem Tool (Name oder Muster) oder einer CEL-Bedingung</translation>
    </message>
    <message>
        <source>A tool such as run_command or write_*, or a CEL condition over tool, args, step and workspace, e.g. args.path.endsWith(&quot;.py&quot;)</source>
        <translation>Ein Tool wie run_command oder write_* oder eine CEL-Bedingung über tool, args, step und workspace, z. B. args.path.endsWith(&quot;.py&quot;)</translation>
    </message>
    <message>
        <source>Asking the session for its state…</source>
        <translation>Die Sitzung wird nach ihrem Zustand gefragt…</translation>
    </message>
    <message>
        <source>The session is not running: nothing to control.</source>
        <translation>Die Sitzung läuft nicht: Es gibt nichts zu steuern.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>%1: step %2</source>
        <translation>%1: Schritt %2</translation>
    </message>
    <message>
        <source>%1: done</source>
        <translation>%1: erledigt</translation>
    </message>
    <message>
        <source>waits for approval</source>
        <translation>wartet auf Freigabe</translation>
    </message>
    <message>
        <source>breakpoint</source>
        <translation>Haltepunkt</translation>
    </message>
    <message>
        <source>step mode</source>
        <translation>Einzelschrittmodus</translation>
    </message>
    <message>
        <source>&lt;b&gt;Paused before step %1&lt;/b&gt;: &lt;code&gt;%2&lt;/code&gt; — %3</source>
        <translation>&lt;b&gt;Angehalten vor Schritt %1&lt;/b&gt;: &lt;code&gt;%2&lt;/code&gt; — %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Running&lt;/b&gt; — pauses before the next call</source>
        <translation>&lt;b&gt;Läuft&lt;/b&gt; — hält vor dem nächsten Aufruf an</translation>
    </message>
    <message>
        <source>&lt;b&gt;Running&lt;/b&gt;</source>
        <translation>&lt;b&gt;Läuft&lt;/b&gt;</translation>
    </message>
    <message>
        <source>No breakpoints</source>
        <translation>Keine Haltepunkte</translation>
    </message>
    <message>
        <source>Breaks on: %1</source>
        <translation>Hält an bei: %1</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>Breakpoint: %1</source>
        <translation>Haltepunkt: %1</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionJobRunner</name>
    <message>
        <source>The session has no step %1.</source>
        <translation>Die Sitzung hat keinen Schritt %1.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot export to %1: %2</source>
        <translation>Export nach %1 nicht möglich: %2</translation>
    </message>
</context>
<context>
    <name>sb::ui::SessionListModel</name>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
</context>
<context>
    <name>sb::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Empty: --store, $SANDBENCH_STORE or the default location</source>
        <translation>Leer: --store, $SANDBENCH_STORE oder der Standardort</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>None: the toolbar&apos;s isolation level and limits</source>
        <translation>Keine: Isolationsstufe und Grenzen der Werkzeugleiste</translation>
    </message>
    <message>
        <source>A built-in preset, or a policy file; the toolbar&apos;s level and limits apply on top</source>
        <translation>Eine eingebaute Vorlage oder eine Richtliniendatei; Stufe und Grenzen der Werkzeugleiste gelten zusätzlich</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>&amp;Store:</source>
        <translation>&amp;Ablage:</translation>
    </message>
    <message>
        <source>Takes effect when Sandbench starts next. --store and $SANDBENCH_STORE come first.</source>
        <translation>Wirkt beim nächsten Start von Sandbench. --store und $SANDBENCH_STORE haben Vorrang.</translation>
    </message>
    <message>
        <source>Default &amp;policy:</source>
        <translation>Standard&amp;richtlinie:</translation>
    </message>
    <message>
        <source>The policy of the snippets you run (not of the demo); the toolbar&apos;s isolation level and limits apply on top.</source>
        <translation>Die Richtlinie der Snippets, die Sie ausführen (nicht der Demo); Isolationsstufe und Grenzen der Werkzeugleiste gelten zusätzlich.</translation>
    </message>
    <message>
        <source>Editor &amp;font:</source>
        <translation>Editor&amp;schrift:</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>&amp;Farbschema:</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Sprache:</translation>
    </message>
    <message>
        <source>Takes effect when Sandbench starts next.</source>
        <translation>Wirkt beim nächsten Start von Sandbench.</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>Ablage</translation>
    </message>
    <message>
        <source>Sandbench stores (*.db);;All files (*)</source>
        <translation>Sandbench-Ablagen (*.db);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Default policy</source>
        <translation>Standardrichtlinie</translation>
    </message>
    <message>
        <source>Policies (*.yaml *.yml);;All files (*)</source>
        <translation>Richtlinien (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>This policy cannot rule a run: %1</source>
        <translation>Diese Richtlinie kann keinen Lauf regeln: %1</translation>
    </message>
</context>
<context>
    <name>sb::ui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Tastenkürzel</translation>
    </message>
</context>
<context>
    <name>sb::ui::Snippets</name>
    <message>
        <source># Welcome to Sandbench: this snippet runs in an OS sandbox.
# Press Ctrl+Return to run it, or try the Demo to see every outcome.
</source>
        <translation># Willkommen bei Sandbench: Dieses Snippet läuft in einer Betriebssystem-Sandbox.
# Strg+Eingabe führt es aus; die Demo zeigt jedes Ergebnis.
</translation>
    </message>
    <message>
        <source># The policy refuses risky modules; uncomment to see a blocked run:
</source>
        <translation># Die Richtlinie verweigert riskante Module; entfernen Sie das Kommentarzeichen, um eine blockierte Ausführung zu sehen:
</translation>
    </message>
</context>
<context>
    <name>sb::ui::StepDetails</name>
    <message>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Workspace diff</source>
        <translation>Änderungen im Arbeitsbereich</translation>
    </message>
    <message>
        <source>Raw frames</source>
        <translation>Rohe Frames</translation>
    </message>
    <message>
        <source>Select a step to see its details.</source>
        <translation>Einen Schritt wählen, um seine Details zu sehen.</translation>
    </message>
    <message>
        <source>Cannot read step %1: %2</source>
        <translation>Schritt %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt; · &lt;code&gt;%2&lt;/code&gt; · &lt;span style=&apos;background:%3; color:white; padding:1px 4px&apos;&gt;&amp;nbsp;%4&amp;nbsp;&lt;/span&gt;</source>
        <translation>&lt;b&gt;Schritt %1&lt;/b&gt; · &lt;code&gt;%2&lt;/code&gt; · &lt;span style=&apos;background:%3; color:white; padding:1px 4px&apos;&gt;&amp;nbsp;%4&amp;nbsp;&lt;/span&gt;</translation>
    </message>
    <message>
        <source> · arguments edited by a person</source>
        <translation> · Argumente von einer Person bearbeitet</translation>
    </message>
    <message>
        <source>Decided by: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Entschieden durch: &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>the policy&apos;s default</source>
        <translation>die Vorgabe der Richtlinie</translation>
    </message>
    <message>
        <source>Duration %1 · cost %2 · so far %3</source>
        <translation>Dauer %1 · Kosten %2 · bisher %3</translation>
    </message>
    <message>
        <source> of max_cost %1</source>
        <translation> von max_cost %1</translation>
    </message>
    <message>
        <source>Checkpoints: before %1, after %2</source>
        <translation>Checkpoints: vorher %1, nachher %2</translation>
    </message>
    <message>
        <source>Reasoning: &lt;i&gt;%1&lt;/i&gt;</source>
        <translation>Begründung: &lt;i&gt;%1&lt;/i&gt;</translation>
    </message>
    <message>
        <source>→ request
%1

← response
%2</source>
        <translation>→ Anfrage
%1

← Antwort
%2</translation>
    </message>
    <message>
        <source>

Arguments as the agent sent them (before a person edited them):
%1</source>
        <translation>

Argumente, wie der Agent sie gesendet hat (bevor eine Person sie bearbeitet hat):
%1</translation>
    </message>
    <message>
        <source>No workspace diff: %1</source>
        <translation>Kein Vergleich des Arbeitsbereichs: %1</translation>
    </message>
    <message>
        <source>No checkpoint was taken after this step began: what it changed in the workspace is not recorded.</source>
        <translation>Nach Beginn dieses Schritts wurde kein Checkpoint angelegt: Was er im Arbeitsbereich geändert hat, ist nicht aufgezeichnet.</translation>
    </message>
    <message>
        <source>No checkpoint records a change of the workspace by this step (before and after it: %1).</source>
        <translation>Kein Checkpoint hält eine Änderung des Arbeitsbereichs durch diesen Schritt fest (davor und danach: %1).</translation>
    </message>
    <message>
        <source>Comparing %1 → %2…</source>
        <translation>Vergleich %1 → %2…</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>Wird verglichen…</translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation>Vergleich nicht möglich: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 → %2: %n changed path(s) (%3 added, %4 modified, %5 removed)</source>
        <translation>
            <numerusform>%1 → %2: %n geänderter Pfad (%3 hinzugefügt, %4 geändert, %5 entfernt)</numerusform>
            <numerusform>%1 → %2: %n geänderte Pfade (%3 hinzugefügt, %4 geändert, %5 entfernt)</numerusform>
        </translation>
    </message>
    <message>
        <source>No differences: the checkpoints around this step hold the same files.</source>
        <translation>Keine Unterschiede: Die Checkpoints vor und nach diesem Schritt enthalten dieselben Dateien.</translation>
    </message>
    <message>
        <source>Select a changed path to see its diff.</source>
        <translation>Einen geänderten Pfad wählen, um seinen Unterschied zu sehen.</translation>
    </message>
    <message>
        <source>Binary file differs</source>
        <translation>Binärdatei unterscheidet sich</translation>
    </message>
    <message>
        <source>Too large for a line diff</source>
        <translation>Zu groß für einen zeilenweisen Vergleich</translation>
    </message>
    <message>
        <source>No text differences (a folder, a link, permissions or an empty file).</source>
        <translation>Keine Textunterschiede (ein Ordner, ein Link, Rechte oder eine leere Datei).</translation>
    </message>
</context>
<context>
    <name>sb::ui::StepListModel</name>
    <message>
        <source>in flight</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source> · error</source>
        <translation> · Fehler</translation>
    </message>
    <message>
        <source> · edited</source>
        <translation> · bearbeitet</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Urteil</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
</context>
<context>
    <name>sb::ui::Units</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
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
        <translation>Arbeitsbereiche</translation>
    </message>
</context>
</TS>
