<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <location filename="../ui/jobs/RulesJobs.cpp" line="135"/>
        <source>Demo transactions</source>
        <translation>Demo-Transaktionen</translation>
    </message>
    <message>
        <location filename="../ui/jobs/RulesJobs.cpp" line="142"/>
        <location filename="../ui/jobs/RulesJobs.cpp" line="200"/>
        <source>%1: not a .csv, .jsonl or .ndjson file</source>
        <translation>%1: keine .csv-, .jsonl- oder .ndjson-Datei</translation>
    </message>
    <message>
        <location filename="../ui/jobs/RulesJobs.cpp" line="184"/>
        <location filename="../ui/jobs/RulesJobs.cpp" line="226"/>
        <source>stored %1</source>
        <translation>gespeichert: %1</translation>
    </message>
    <message>
        <location filename="../ui/jobs/RulesJobs.cpp" line="204"/>
        <source>&apos;%1&apos; is not a valid dataset name (letters, digits, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;)</source>
        <translation>„%1“ ist kein gültiger Datensatzname (Buchstaben, Ziffern, „_“, „-“, „.“)</translation>
    </message>
    <message>
        <location filename="../ui/jobs/RulesJobs.cpp" line="245"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location filename="../ui/models/ChangedDecisionsModel.cpp" line="40"/>
        <source>(default)</source>
        <translation>(Vorgabe)</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/gui/main.cpp" line="28"/>
        <source>Sandbench</source>
        <translation>Sandbench</translation>
    </message>
    <message>
        <location filename="../app/gui/main.cpp" line="31"/>
        <source>Run code you do not trust in an OS sandbox.</source>
        <translation>Nicht vertrauenswürdigen Code in einer Betriebssystem-Sandbox ausführen.</translation>
    </message>
    <message>
        <location filename="../app/gui/main.cpp" line="36"/>
        <source>The store file to use (default: $SANDBENCH_STORE or the user&apos;s data folder).</source>
        <translation>Die zu verwendende Ablagedatei (Vorgabe: $SANDBENCH_STORE oder der Datenordner des Benutzers).</translation>
    </message>
    <message>
        <location filename="../app/gui/main.cpp" line="37"/>
        <source>PATH</source>
        <translation>PFAD</translation>
    </message>
    <message>
        <location filename="../app/gui/main.cpp" line="49"/>
        <source>Store unavailable</source>
        <translation>Ablage nicht verfügbar</translation>
    </message>
    <message>
        <location filename="../app/gui/main.cpp" line="50"/>
        <source>The store could not be opened:
%1

%2</source>
        <translation>Die Ablage konnte nicht geöffnet werden:
%1

%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main.cpp" line="53"/>
        <source>You can still edit and run snippets; runs are not recorded and the file is left untouched.</source>
        <translation>Sie können weiterhin Snippets bearbeiten und ausführen; Ausführungen werden nicht aufgezeichnet, und die Datei bleibt unverändert.</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditLogModel</name>
    <message>
        <location filename="../ui/models/AuditLogModel.cpp" line="107"/>
        <source>The chain breaks at this entry.</source>
        <translation>Hier bricht die Kette.</translation>
    </message>
    <message>
        <location filename="../ui/models/AuditLogModel.cpp" line="110"/>
        <source>hash %1
previous %2</source>
        <translation>Hash %1
vorheriger %2</translation>
    </message>
    <message>
        <location filename="../ui/models/AuditLogModel.cpp" line="137"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../ui/models/AuditLogModel.cpp" line="138"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location filename="../ui/models/AuditLogModel.cpp" line="139"/>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <location filename="../ui/models/AuditLogModel.cpp" line="140"/>
        <source>Operation</source>
        <translation>Vorgang</translation>
    </message>
    <message>
        <location filename="../ui/models/AuditLogModel.cpp" line="141"/>
        <source>Subject</source>
        <translation>Gegenstand</translation>
    </message>
    <message>
        <location filename="../ui/models/AuditLogModel.cpp" line="142"/>
        <source>Details</source>
        <translation>Details</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditView</name>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="45"/>
        <source>&amp;Verify chain</source>
        <translation>Kette &amp;prüfen</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="54"/>
        <source>Show one operation only</source>
        <translation>Nur einen Vorgang zeigen</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="57"/>
        <source>Show one actor only</source>
        <translation>Nur einen Akteur zeigen</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="59"/>
        <location filename="../ui/audit/AuditView.cpp" line="211"/>
        <source>All operations</source>
        <translation>Alle Vorgänge</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="60"/>
        <location filename="../ui/audit/AuditView.cpp" line="212"/>
        <source>All actors</source>
        <translation>Alle Akteure</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="62"/>
        <source>Filter: subject, details…</source>
        <translation>Filter: Gegenstand, Details…</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="64"/>
        <source>Show entries holding this text in their actor, operation, subject or details</source>
        <translation>Einträge zeigen, deren Akteur, Vorgang, Gegenstand oder Details diesen Text enthalten</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="67"/>
        <source>Read the log again</source>
        <translation>Protokoll neu lesen</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="104"/>
        <source>Walk the whole hash chain and name the first entry that was altered or removed</source>
        <translation>Die ganze Hash-Kette prüfen und den ersten veränderten oder entfernten Eintrag nennen</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="107"/>
        <source>Stop verifying</source>
        <translation>Prüfung abbrechen</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="140"/>
        <source>Not verified yet. Verify walks the whole hash chain and names the first entry that was altered or removed.</source>
        <translation>Noch nicht geprüft. „Kette prüfen“ geht die ganze Hash-Kette durch und nennt den ersten veränderten oder entfernten Eintrag.</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="155"/>
        <source>The store is unavailable: there is no audit log to show.</source>
        <translation>Die Ablage ist nicht verfügbar: Es gibt kein Prüfprotokoll anzuzeigen.</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="167"/>
        <source>New entries since the last verification. Verify again to cover them.</source>
        <translation>Neue Einträge seit der letzten Prüfung. Erneut prüfen, um sie einzuschließen.</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="207"/>
        <source>Cannot read the log</source>
        <translation>Protokoll nicht lesbar</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="228"/>
        <source>Latest entries: %L1</source>
        <translation>Neueste Einträge: %L1</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="228"/>
        <source>Entries: %L1</source>
        <translation>Einträge: %L1</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="237"/>
        <source>starting…</source>
        <translation>beginnt…</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="240"/>
        <source>Verifying the hash chain…</source>
        <translation>Hash-Kette wird geprüft…</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="255"/>
        <source>%L1 of %L2</source>
        <translation>%L1 von %L2</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="263"/>
        <source>Cannot verify: %1</source>
        <translation>Prüfung nicht möglich: %1</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="268"/>
        <source>Cancelled (entries checked: %L1): nothing is known about the rest.</source>
        <translation>Abgebrochen (geprüfte Einträge: %L1): Über den Rest ist nichts bekannt.</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="275"/>
        <source>✔ Intact: the log is empty.</source>
        <translation>✔ Unversehrt: Das Protokoll ist leer.</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="277"/>
        <source>✔ Intact (entries: %L1). Head #%2: %3</source>
        <translation>✔ Unversehrt (Einträge: %L1). Kopf #%2: %3</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="287"/>
        <source>✘ Broken at entry %1 (%2): %3</source>
        <translation>✘ Gebrochen bei Eintrag %1 (%2): %3</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="288"/>
        <source>✘ Broken (%1): %2</source>
        <translation>✘ Gebrochen (%1): %2</translation>
    </message>
    <message>
        <location filename="../ui/audit/AuditView.cpp" line="299"/>
        <source>The entry is not among the rows shown (removed, or hidden by a filter).</source>
        <translation>Der Eintrag ist nicht unter den gezeigten Zeilen (entfernt oder durch einen Filter ausgeblendet).</translation>
    </message>
</context>
<context>
    <name>sb::ui::ChangedDecisionsModel</name>
    <message>
        <location filename="../ui/models/ChangedDecisionsModel.cpp" line="83"/>
        <source>Record</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <location filename="../ui/models/ChangedDecisionsModel.cpp" line="84"/>
        <source>Current decision</source>
        <translation>Aktuelle Entscheidung</translation>
    </message>
    <message>
        <location filename="../ui/models/ChangedDecisionsModel.cpp" line="85"/>
        <source>Proposed decision</source>
        <translation>Vorgeschlagene Entscheidung</translation>
    </message>
    <message>
        <location filename="../ui/models/ChangedDecisionsModel.cpp" line="86"/>
        <source>Current score</source>
        <translation>Aktueller Score</translation>
    </message>
    <message>
        <location filename="../ui/models/ChangedDecisionsModel.cpp" line="87"/>
        <source>Proposed score</source>
        <translation>Vorgeschlagener Score</translation>
    </message>
    <message>
        <location filename="../ui/models/ChangedDecisionsModel.cpp" line="88"/>
        <source>Current rule</source>
        <translation>Aktuelle Regel</translation>
    </message>
    <message>
        <location filename="../ui/models/ChangedDecisionsModel.cpp" line="89"/>
        <source>Proposed rule</source>
        <translation>Vorgeschlagene Regel</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointBrowser</name>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="63"/>
        <source>Creating the sandbox…</source>
        <translation>Sandbox wird angelegt…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="64"/>
        <source>Destroying the sandbox…</source>
        <translation>Sandbox wird gelöscht…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="65"/>
        <source>Creating a checkpoint…</source>
        <translation>Checkpoint wird angelegt…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="66"/>
        <source>Restoring…</source>
        <translation>Wird wiederhergestellt…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="67"/>
        <source>Forking…</source>
        <translation>Wird abgezweigt…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="69"/>
        <source>Making the demo sandboxes…</source>
        <translation>Demo-Sandboxes werden angelegt…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="72"/>
        <source>Applying the sandbox&apos;s settings…</source>
        <translation>Die Einstellungen der Sandbox werden übernommen…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="132"/>
        <source>Cancel the running checkpoint operation or diff</source>
        <translation>Laufende Checkpoint-Operation oder den Vergleich abbrechen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="169"/>
        <source>Select a checkpoint to compare it with the live workspace; Ctrl-click a second one to compare the two</source>
        <translation>Einen Checkpoint wählen, um ihn mit dem aktuellen Arbeitsbereich zu vergleichen; mit Strg-Klick einen zweiten wählen, um die beiden zu vergleichen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="268"/>
        <source>The store is not open.</source>
        <translation>Die Ablage ist nicht geöffnet.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="302"/>
        <source>New sandbox…</source>
        <translation>Neue Sandbox…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="303"/>
        <source>Make a sandbox from main, a sandbox, the selected checkpoint or an imported folder</source>
        <translation>Eine Sandbox aus main, einer Sandbox, dem gewählten Checkpoint oder einem importierten Ordner anlegen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="305"/>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="818"/>
        <source>Destroy</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="305"/>
        <source>Delete the selected sandbox, its workspace and its checkpoints</source>
        <translation>Die gewählte Sandbox, ihren Arbeitsbereich und ihre Checkpoints löschen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="307"/>
        <source>Open folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="307"/>
        <source>Open the sandbox&apos;s workspace folder in the file manager</source>
        <translation>Den Arbeitsbereich der Sandbox im Dateimanager öffnen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="310"/>
        <source>Settings…</source>
        <translation>Einstellungen…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="311"/>
        <source>Change the selected sandbox&apos;s size quota and idle timeout</source>
        <translation>Größenkontingent und Ruhezeit der gewählten Sandbox ändern</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="313"/>
        <source>Checkpoint…</source>
        <translation>Checkpoint…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="313"/>
        <source>Snapshot the sandbox&apos;s workspace as it is now</source>
        <translation>Den Arbeitsbereich der Sandbox so festhalten, wie er jetzt ist</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="315"/>
        <source>Restore…</source>
        <translation>Wiederherstellen…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="316"/>
        <source>Make the workspace equal to the selected checkpoint (unsaved changes are checkpointed first)</source>
        <translation>Den Arbeitsbereich auf den gewählten Checkpoint zurücksetzen (ungesicherte Änderungen werden vorher als Checkpoint gesichert)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="318"/>
        <source>Fork…</source>
        <translation>Abzweigen…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="318"/>
        <source>A new sandbox whose workspace is the selected checkpoint</source>
        <translation>Eine neue Sandbox, deren Arbeitsbereich der gewählte Checkpoint ist</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="323"/>
        <source>Sweep now</source>
        <translation>Jetzt aufräumen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="329"/>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="330"/>
        <source>Read the sandboxes and checkpoints again and redo the diff</source>
        <translation>Sandboxes und Checkpoints neu lesen und den Vergleich wiederholen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="352"/>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="515"/>
        <source>The store is unavailable: there are no sandboxes to show.</source>
        <translation>Die Ablage ist nicht verfügbar: Es gibt keine Sandboxes anzuzeigen.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="432"/>
        <source>Cannot read the sandboxes: %1</source>
        <translation>Die Sandboxes können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="482"/>
        <source>Cannot read the checkpoints of %1: %2</source>
        <translation>Die Checkpoints von %1 können nicht gelesen werden: %2</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="517"/>
        <source>Only main so far. New sandbox… makes a world to experiment in; the Demo (Ctrl+Shift+D) also adds two demo sandboxes with a few checkpoints to explore.</source>
        <translation>Bisher nur main. „Neue Sandbox…“ legt eine Welt zum Experimentieren an; die Demo (Strg+Umschalt+D) fügt außerdem zwei Demo-Sandboxes mit einigen Checkpoints zum Erkunden hinzu.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="520"/>
        <source>Select a checkpoint to see how the live workspace differs from it; Ctrl-click a second checkpoint to compare the two.</source>
        <translation>Einen Checkpoint wählen, um zu sehen, wie der aktuelle Arbeitsbereich von ihm abweicht; mit Strg-Klick einen zweiten Checkpoint wählen, um die beiden zu vergleichen.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="528"/>
        <source>Select one checkpoint (compared with the live workspace) or two (compared with each other).</source>
        <translation>Einen Checkpoint wählen (Vergleich mit dem aktuellen Arbeitsbereich) oder zwei (Vergleich miteinander).</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="543"/>
        <source>Comparing…</source>
        <translation>Wird verglichen…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="546"/>
        <source>comparing</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="559"/>
        <source>Diff cancelled.</source>
        <translation>Vergleich abgebrochen.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="563"/>
        <source>Cannot compare: %1</source>
        <translation>Vergleich nicht möglich: %1</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="569"/>
        <source>live workspace</source>
        <translation>aktueller Arbeitsbereich</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="572"/>
        <source>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: %n changed path(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: %n geänderter Pfad</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;: %n geänderte Pfade</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="576"/>
        <source>%1 added</source>
        <translation>%1 hinzugefügt</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="576"/>
        <source>%1 modified</source>
        <translation>%1 geändert</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="577"/>
        <source>%1 removed</source>
        <translation>%1 entfernt</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="579"/>
        <source>Not compared (skipped by the walk): %1</source>
        <translation>Nicht verglichen (beim Durchlauf übersprungen): %1</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="590"/>
        <source>No differences: the live workspace is exactly this checkpoint.</source>
        <translation>Keine Unterschiede: Der aktuelle Arbeitsbereich entspricht genau diesem Checkpoint.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="591"/>
        <source>No differences: both checkpoints hold the same files.</source>
        <translation>Keine Unterschiede: Beide Checkpoints enthalten dieselben Dateien.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="603"/>
        <source>Select a changed path to see its diff.</source>
        <translation>Einen geänderten Pfad wählen, um seinen Unterschied zu sehen.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="609"/>
        <source>Binary file differs</source>
        <translation>Binärdatei unterscheidet sich</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="611"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="613"/>
        <source>Binary file added (%1)</source>
        <translation>Binärdatei hinzugefügt (%1)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="615"/>
        <source>Binary file removed (%1)</source>
        <translation>Binärdatei entfernt (%1)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="621"/>
        <source>Too large for a line diff (%1)</source>
        <translation>Zu groß für einen zeilenweisen Vergleich (%1)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="627"/>
        <source>Folder permissions changed</source>
        <translation>Ordnerrechte geändert</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="627"/>
        <source>Empty folder</source>
        <translation>Leerer Ordner</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="629"/>
        <source>Symbolic link → %1</source>
        <translation>Symbolischer Link → %1</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="631"/>
        <source>Permissions changed: %1 → %2</source>
        <translation>Rechte geändert: %1 → %2</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="634"/>
        <source>No text differences (an empty file).</source>
        <translation>Keine Textunterschiede (eine leere Datei).</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="701"/>
        <source>Comparing: %1</source>
        <translation>Vergleich: %1</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="712"/>
        <source>Cancelled: nothing was changed.</source>
        <translation>Abgebrochen: Nichts wurde geändert.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="716"/>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="717"/>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="720"/>
        <source>This could not be done:</source>
        <translation>Das konnte nicht ausgeführt werden:</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="730"/>
        <source>(%n path(s) skipped; first: %1)</source>
        <translation>
            <numerusform>(%n Pfad übersprungen; erster: %1)</numerusform>
            <numerusform>(%n Pfade übersprungen; erster: %1)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="733"/>
        <source>At start: %1</source>
        <translation>Beim Start: %1</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="788"/>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="812"/>
        <source>Destroy sandbox</source>
        <translation>Sandbox löschen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="813"/>
        <source>Destroy the sandbox &lt;b&gt;%1&lt;/b&gt;?</source>
        <translation>Die Sandbox &lt;b&gt;%1&lt;/b&gt; löschen?</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="816"/>
        <source>Its workspace folder and its %n checkpoint(s) are deleted. This cannot be undone.</source>
        <translation>
            <numerusform>Ihr Arbeitsbereich und ihr %n Checkpoint werden gelöscht. Das kann nicht rückgängig gemacht werden.</numerusform>
            <numerusform>Ihr Arbeitsbereich und ihre %n Checkpoints werden gelöscht. Das kann nicht rückgängig gemacht werden.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="743"/>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="840"/>
        <source>Cannot open %1 in a file manager</source>
        <translation>%1 kann nicht in einem Dateimanager geöffnet werden</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="889"/>
        <source>Restore checkpoint</source>
        <translation>Checkpoint wiederherstellen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="890"/>
        <source>Restore the workspace of &lt;b&gt;%1&lt;/b&gt; to checkpoint %2?</source>
        <translation>Den Arbeitsbereich von &lt;b&gt;%1&lt;/b&gt; auf Checkpoint %2 zurücksetzen?</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="894"/>
        <source>Unsaved changes in the workspace are checkpointed first, and the restore is recorded as a new checkpoint: nothing is lost.</source>
        <translation>Ungesicherte Änderungen im Arbeitsbereich werden vorher als Checkpoint gesichert, und die Wiederherstellung wird als neuer Checkpoint festgehalten: Nichts geht verloren.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="896"/>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="776"/>
        <source>Another checkpoint operation is running: try again when it ends.</source>
        <translation>Eine andere Checkpoint-Operation läuft: Bitte erneut versuchen, wenn sie beendet ist.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="777"/>
        <source>The store is unavailable.</source>
        <translation>Die Ablage ist nicht verfügbar.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="327"/>
        <source>Promote…</source>
        <translation>Übernehmen…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="328"/>
        <source>Review what the selected sandbox changed and promote it into main (or another sandbox)</source>
        <translation>Prüfen, was die gewählte Sandbox geändert hat, und es nach main (oder in eine andere Sandbox) übernehmen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="947"/>
        <source>Promoted %1 into %2: checkpoint %3</source>
        <translation>%1 nach %2 übernommen: Checkpoint %3</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="68"/>
        <source>Sweeping expired and idle sandboxes…</source>
        <translation>Abgelaufene und ruhende Sandboxes werden aufgeräumt…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="70"/>
        <source>Labelling the checkpoint…</source>
        <translation>Der Checkpoint wird beschriftet…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="71"/>
        <source>Reviving the archived sandbox…</source>
        <translation>Die archivierte Sandbox wird wiederhergestellt…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="320"/>
        <source>Label…</source>
        <translation>Beschriften…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="321"/>
        <source>Give the selected checkpoint a label, or clear it (its id stays)</source>
        <translation>Dem gewählten Checkpoint eine Beschriftung geben oder sie entfernen (seine ID bleibt)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointBrowser.cpp" line="324"/>
        <source>Destroy every expired sandbox, archive every idle one (its work kept), and free what nothing uses</source>
        <translation>Jede abgelaufene Sandbox löschen, jede ruhende archivieren (ihre Arbeit bleibt erhalten) und freigeben, was nichts mehr benutzt</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointDialog</name>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="258"/>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="267"/>
        <source>Create checkpoint</source>
        <translation>Checkpoint anlegen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="260"/>
        <source>e.g. before the velocity rule</source>
        <translation>z. B. vor der Velocity-Regel</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="262"/>
        <source>why (optional)</source>
        <translation>warum (optional)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="263"/>
        <source>Snapshot the workspace of &lt;b&gt;%1&lt;/b&gt; as it is now.</source>
        <translation>Den Arbeitsbereich von &lt;b&gt;%1&lt;/b&gt; so festhalten, wie er jetzt ist.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="265"/>
        <source>&amp;Label:</source>
        <translation>&amp;Bezeichnung:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="266"/>
        <source>&amp;Message:</source>
        <translation>&amp;Nachricht:</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointJobRunner</name>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="328"/>
        <source>Sandbox %1 created from %2: %3 files, %4</source>
        <translation>Sandbox %1 aus %2 angelegt: %3 Dateien, %4</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="348"/>
        <source>Sandbox %1 destroyed: %2 checkpoints removed, %3 freed</source>
        <translation>Sandbox %1 gelöscht: %2 Checkpoints entfernt, %3 freigegeben</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="369"/>
        <source>Checkpoint %1 of %2: %3 added, %4 modified, %5 removed</source>
        <translation>Checkpoint %1 von %2: %3 hinzugefügt, %4 geändert, %5 entfernt</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="393"/>
        <source> (unsaved changes saved first as %1)</source>
        <translation> (ungesicherte Änderungen vorher als %1 gesichert)</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="394"/>
        <source>%1 restored to %2: %3 added, %4 modified, %5 removed%6</source>
        <translation>%1 auf %2 zurückgesetzt: %3 hinzugefügt, %4 geändert, %5 entfernt%6</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="416"/>
        <source>Sandbox %1 forked from checkpoint %2</source>
        <translation>Sandbox %1 von Checkpoint %2 abgezweigt</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="432"/>
        <source>Sweep: no expired sandboxes</source>
        <translation>Aufräumen: keine abgelaufenen Sandboxes</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="437"/>
        <source>Sweep destroyed the expired sandboxes %1 (%2 checkpoints, %3 freed)</source>
        <translation>Aufräumen hat die abgelaufenen Sandboxes %1 gelöscht (%2 Checkpoints, %3 freigegeben)</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="468"/>
        <source>Demo sandboxes %1 ready with %2 checkpoints</source>
        <translation>Demo-Sandboxes %1 bereit mit %2 Checkpoints</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="446"/>
        <source>Sweep archived the idle sandboxes %1 (their work is checkpointed; they come back when used)</source>
        <translation>Aufräumen hat die ruhenden Sandboxes %1 archiviert (ihre Arbeit ist als Checkpoint gesichert; sie kehren bei Benutzung zurück)</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="486"/>
        <source>Checkpoint %1: label cleared</source>
        <translation>Checkpoint %1: Beschriftung entfernt</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="487"/>
        <source>Checkpoint %1 labelled “%2”</source>
        <translation>Checkpoint %1 beschriftet mit „%2“</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="503"/>
        <source>Sandbox %1: settings applied</source>
        <translation>Sandbox %1: Einstellungen übernommen</translation>
    </message>
    <message>
        <location filename="../ui/jobs/CheckpointJobs.cpp" line="519"/>
        <source>Sandbox %1 revived: its workspace is back from checkpoint %2</source>
        <translation>Sandbox %1 wiederhergestellt: ihr Arbeitsbereich ist aus Checkpoint %2 zurück</translation>
    </message>
</context>
<context>
    <name>sb::ui::CheckpointListModel</name>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="87"/>
        <source>from %1</source>
        <translation>aus %1</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="101"/>
        <source>Checkpoint %1</source>
        <translation>Checkpoint %1</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="103"/>
        <source>The sandbox&apos;s workspace stands on this checkpoint (its head).</source>
        <translation>Der Arbeitsbereich der Sandbox steht auf diesem Checkpoint (ihr Head).</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="105"/>
        <source>Label: %1</source>
        <translation>Bezeichnung: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="107"/>
        <source>Message: %1</source>
        <translation>Nachricht: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="109"/>
        <source>Parent: %1%2</source>
        <translation>Eltern-Checkpoint: %1%2</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="111"/>
        <source> (in another sandbox)</source>
        <translation> (in einer anderen Sandbox)</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="113"/>
        <source>Made from: %1</source>
        <translation>Angelegt aus: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="148"/>
        <source>Graph</source>
        <translation>Graph</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="149"/>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="150"/>
        <source>Label / message</source>
        <translation>Bezeichnung / Nachricht</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="151"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="152"/>
        <source>Author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="153"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="154"/>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <location filename="../ui/models/CheckpointListModel.cpp" line="155"/>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
</context>
<context>
    <name>sb::ui::DiffFileModel</name>
    <message>
        <location filename="../ui/models/DiffFileModel.cpp" line="89"/>
        <source>binary</source>
        <translation>binär</translation>
    </message>
    <message>
        <location filename="../ui/models/DiffFileModel.cpp" line="91"/>
        <source>too large</source>
        <translation>zu groß</translation>
    </message>
    <message>
        <location filename="../ui/models/DiffFileModel.cpp" line="107"/>
        <source>Added: %1</source>
        <translation>Hinzugefügt: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/DiffFileModel.cpp" line="108"/>
        <source>Removed: %1</source>
        <translation>Entfernt: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/DiffFileModel.cpp" line="109"/>
        <source>Modified: %1</source>
        <translation>Geändert: %1</translation>
    </message>
    <message>
        <location filename="../ui/models/DiffFileModel.cpp" line="128"/>
        <source>Changed path</source>
        <translation>Geänderter Pfad</translation>
    </message>
    <message>
        <location filename="../ui/models/DiffFileModel.cpp" line="129"/>
        <source>Lines</source>
        <translation>Zeilen</translation>
    </message>
</context>
<context>
    <name>sb::ui::ForkDialog</name>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="292"/>
        <source>Fork checkpoint</source>
        <translation>Checkpoint abzweigen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="295"/>
        <source>A new sandbox whose workspace is checkpoint %1.</source>
        <translation>Eine neue Sandbox, deren Arbeitsbereich Checkpoint %1 ist.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="298"/>
        <source>New sandbox &amp;name:</source>
        <translation>&amp;Name der neuen Sandbox:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="289"/>
        <source>Fork</source>
        <translation>Abzweigen</translation>
    </message>
</context>
<context>
    <name>sb::ui::LabelDialog</name>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="327"/>
        <source>Label checkpoint</source>
        <translation>Checkpoint beschriften</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="329"/>
        <source>e.g. release candidate 2 (empty: no label)</source>
        <translation>z. B. Release-Kandidat 2 (leer: keine Beschriftung)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="331"/>
        <source>The label of checkpoint %1. Labels can change at any time; the checkpoint and its id stay as they are.</source>
        <translation>Die Beschriftung von Checkpoint %1. Beschriftungen können sich jederzeit ändern; der Checkpoint und seine ID bleiben, wie sie sind.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="337"/>
        <source>&amp;Label:</source>
        <translation>&amp;Beschriftung:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="338"/>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
</context>
<context>
    <name>sb::ui::MainWindow</name>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="97"/>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="601"/>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="131"/>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="136"/>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="141"/>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="146"/>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="151"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="157"/>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="344"/>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="160"/>
        <source>Run the snippet in the sandbox (Ctrl+Return)</source>
        <translation>Das Snippet in der Sandbox ausführen (Strg+Eingabe)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="163"/>
        <source>&amp;Cancel</source>
        <translation>Abbre&amp;chen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="166"/>
        <source>Cancel the running job (Esc)</source>
        <translation>Den laufenden Auftrag abbrechen (Esc)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="169"/>
        <source>&amp;Demo</source>
        <translation>&amp;Demo</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="172"/>
        <source>Run every demo case: moves every counter and chart</source>
        <translation>Alle Demo-Fälle ausführen: bewegt jeden Zähler und jedes Diagramm</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="175"/>
        <source>&amp;About Sandbench</source>
        <translation>Ü&amp;ber Sandbench</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="199"/>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="220"/>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="221"/>
        <source>Shell</source>
        <translation>Shell</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="225"/>
        <source>&amp;Language:</source>
        <translation>&amp;Sprache:</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="233"/>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="235"/>
        <source>Wall-clock limit: the whole run is killed when it is reached</source>
        <translation>Zeitlimit (Echtzeit): bei Erreichen wird die gesamte Ausführung beendet</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="236"/>
        <source>&amp;Timeout:</source>
        <translation>&amp;Zeitlimit:</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="243"/>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="244"/>
        <source>Address-space limit of the run</source>
        <translation>Adressraum-Limit der Ausführung</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="245"/>
        <source>&amp;Memory:</source>
        <translation>Spei&amp;cher:</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="286"/>
        <source>Double-click a run to load its snippet into the editor</source>
        <translation>Doppelklick auf eine Ausführung lädt ihr Snippet in den Editor</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="289"/>
        <source>Run history</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="294"/>
        <source>Metrics</source>
        <translation>Messwerte</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="332"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="335"/>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="350"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="365"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="401"/>
        <source>Store: %1</source>
        <translation>Ablage: %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="412"/>
        <source>The store %1 could not be opened: %2
Runs still work but are not recorded; the file was left untouched.</source>
        <translation>Die Ablage %1 konnte nicht geöffnet werden: %2
Ausführungen funktionieren weiterhin, werden aber nicht aufgezeichnet; die Datei blieb unverändert.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="447"/>
        <source>Store unavailable</source>
        <translation>Ablage nicht verfügbar</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="497"/>
        <source>Demo %v/%m</source>
        <translation>Demo %v/%m</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/mainwindow/MainWindow.cpp" line="499"/>
        <source>Demo: %n case(s)</source>
        <translation>
            <numerusform>Demo: %n Fall</numerusform>
            <numerusform>Demo: %n Fälle</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="538"/>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="554"/>
        <source>Demo case %1 of %2: %3</source>
        <translation>Demo-Fall %1 von %2: %3</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="557"/>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="588"/>
        <source>The run could not be recorded: %1</source>
        <translation>Die Ausführung konnte nicht aufgezeichnet werden: %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="595"/>
        <source>Demo cancelled.</source>
        <translation>Demo abgebrochen.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="597"/>
        <source>Demo finished: every case ended as expected.</source>
        <translation>Demo beendet: jeder Fall endete wie erwartet.</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/mainwindow/MainWindow.cpp" line="599"/>
        <source>Demo finished: %n case(s) ended unexpectedly.</source>
        <translation>
            <numerusform>Demo beendet: %n Fall endete unerwartet.</numerusform>
            <numerusform>Demo beendet: %n Fälle endeten unerwartet.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="601"/>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="615"/>
        <source>Loaded the snippet of the run from %1</source>
        <translation>Snippet der Ausführung vom %1 geladen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="633"/>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="643"/>
        <source>Open snippet</source>
        <translation>Snippet öffnen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="634"/>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="682"/>
        <source>Snippets (*.py *.sh);;All files (*)</source>
        <translation>Snippets (*.py *.sh);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="643"/>
        <source>This file cannot be opened:</source>
        <translation>Diese Datei kann nicht geöffnet werden:</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="661"/>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="681"/>
        <source>Save snippet</source>
        <translation>Snippet speichern</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="661"/>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="667"/>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="679"/>
        <source>snippet.sh</source>
        <translation>snippet.sh</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="679"/>
        <source>snippet.py</source>
        <translation>snippet.py</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="690"/>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="691"/>
        <source>The snippet has been modified. Save your changes?</source>
        <translation>Das Snippet wurde geändert. Änderungen speichern?</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="706"/>
        <source>untitled</source>
        <translation>unbenannt</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="707"/>
        <source>%1[*] — Sandbench</source>
        <translation>%1[*] — Sandbench</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="737"/>
        <source>Clear list</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="748"/>
        <source>About Sandbench</source>
        <translation>Über Sandbench</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="749"/>
        <source>&lt;h3&gt;Sandbench %1&lt;/h3&gt;&lt;p&gt;A workbench for running what you do not trust: snippets run in an operating-system sandbox, every outcome is measured and kept in one SQLite store.&lt;/p&gt;&lt;p&gt;Store: &lt;code&gt;%2&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Sandbench %1&lt;/h3&gt;&lt;p&gt;Eine Werkbank für alles, dem Sie nicht vertrauen: Snippets laufen in einer Betriebssystem-Sandbox, jedes Ergebnis wird gemessen und in einer SQLite-Ablage aufbewahrt.&lt;/p&gt;&lt;p&gt;Ablage: &lt;code&gt;%2&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="250"/>
        <source>Isolation level of the run (sandbench doctor explains what this machine offers)</source>
        <translation>Isolationsstufe des Laufs (sandbench doctor erklärt, was dieser Rechner bietet)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="262"/>
        <source>&amp;Isolation:</source>
        <translation>&amp;Isolation:</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="300"/>
        <source>Audit log</source>
        <translation>Prüfprotokoll</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="182"/>
        <source>Check&amp;points</source>
        <translation>Check&amp;points</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="185"/>
        <source>Show the checkpoint browser: sandboxes, their checkpoints and diffs (Ctrl+Shift+K)</source>
        <translation>Checkpoint-Browser zeigen: Sandboxes, ihre Checkpoints und Unterschiede (Strg+Umschalt+K)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="309"/>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="357"/>
        <source>&amp;Sandboxes</source>
        <translation>&amp;Sandboxes</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="190"/>
        <source>&amp;Rules</source>
        <translation>&amp;Regeln</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="193"/>
        <source>Show the rules workspace: rule sets, evaluation, A/B comparison (Ctrl+Shift+R)</source>
        <translation>Regel-Arbeitsbereich zeigen: Regelsätze, Auswertung, A/B-Vergleich (Strg+Umschalt+R)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/MainWindow.cpp" line="317"/>
        <source>Rules</source>
        <translation>Regeln</translation>
    </message>
</context>
<context>
    <name>sb::ui::MetricsDashboard</name>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="59"/>
        <source>Runs</source>
        <translation>Ausführungen</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="60"/>
        <source>OK rate</source>
        <translation>OK-Quote</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="61"/>
        <source>Blocked</source>
        <translation>Blockiert</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="62"/>
        <source>Timeouts</source>
        <translation>Zeitüberschreitungen</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="63"/>
        <source>Errors</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="64"/>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="65"/>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="66"/>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="72"/>
        <source>Runs by outcome</source>
        <translation>Ausführungen nach Ergebnis</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="100"/>
        <source>Run duration (ms)</source>
        <translation>Laufzeit (ms)</translation>
    </message>
    <message>
        <location filename="../ui/charts/MetricsDashboard.cpp" line="102"/>
        <source>runs</source>
        <translation>Ausführungen</translation>
    </message>
</context>
<context>
    <name>sb::ui::NewSandboxDialog</name>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="68"/>
        <source>Give the sandbox a name.</source>
        <translation>Der Sandbox einen Namen geben.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="91"/>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="101"/>
        <source>New sandbox</source>
        <translation>Neue Sandbox</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="103"/>
        <source>e.g. try-new-rules</source>
        <translation>z. B. neue-regeln-testen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="107"/>
        <source>main (production)</source>
        <translation>main (Produktion)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="107"/>
        <source>sandbox %1</source>
        <translation>Sandbox %1</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="111"/>
        <source>checkpoint %1</source>
        <translation>Checkpoint %1</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="112"/>
        <source>a folder to import…</source>
        <translation>ein zu importierender Ordner…</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="117"/>
        <source>A sandbox&apos;s current workspace (unsaved changes are checkpointed first), a checkpoint, or a folder copied in (never mounted)</source>
        <translation>Der aktuelle Arbeitsbereich einer Sandbox (ungesicherte Änderungen werden vorher als Checkpoint gesichert), ein Checkpoint oder ein hineinkopierter Ordner (nie eingehängt)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="121"/>
        <source>folder to copy into the new workspace</source>
        <translation>Ordner, der in den neuen Arbeitsbereich kopiert wird</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="128"/>
        <source>all files (e.g. rules/** data/*.csv)</source>
        <translation>alle Dateien (z. B. rules/** data/*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="129"/>
        <source>Only paths matching one of these globs (separated by spaces or commas)</source>
        <translation>Nur Pfade, die auf eines dieser Muster passen (durch Leerzeichen oder Kommas getrennt)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="131"/>
        <source>none (e.g. *.log build/**)</source>
        <translation>keine (z. B. *.log build/**)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="132"/>
        <source>Leave out paths matching one of these globs</source>
        <translation>Pfade auslassen, die auf eines dieser Muster passen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="58"/>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="136"/>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="205"/>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="215"/>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="238"/>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="245"/>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="408"/>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="139"/>
        <source>After this long the sandbox is destroyed by the next sweep (e.g. 2h, 1d12h, 7d)</source>
        <translation>Nach dieser Zeit löscht das nächste Aufräumen die Sandbox (z. B. 2h, 1d12h, 7d)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="146"/>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="147"/>
        <source>&amp;From:</source>
        <translation>&amp;Aus:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="148"/>
        <source>&amp;Import:</source>
        <translation>&amp;Importieren:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="151"/>
        <source>&amp;Include:</source>
        <translation>&amp;Einschließen:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="152"/>
        <source>E&amp;xclude:</source>
        <translation>A&amp;usschließen:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="153"/>
        <source>&amp;Expires in:</source>
        <translation>&amp;Läuft ab in:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="98"/>
        <source>Create</source>
        <translation>Anlegen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="181"/>
        <source>Folder to import</source>
        <translation>Zu importierender Ordner</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="200"/>
        <source>Choose the folder to import.</source>
        <translation>Den zu importierenden Ordner wählen.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="202"/>
        <source>%1 is not a folder.</source>
        <translation>%1 ist kein Ordner.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="51"/>
        <source>none (e.g. 500M, 2G)</source>
        <translation>keine (z. B. 500M, 2G)</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="142"/>
        <source>The most its workspace may hold: creation, checkpoints and runs are held to it</source>
        <translation>Was ihr Arbeitsbereich höchstens belegen darf: Anlegen, Checkpoints und Läufe halten sich daran</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="61"/>
        <source>Unused this long, the sandbox is archived by the next sweep: its work is checkpointed, its folder removed until it is used again</source>
        <translation>So lange unbenutzt, wird die Sandbox beim nächsten Aufräumen archiviert: ihre Arbeit wird als Checkpoint gesichert, ihr Ordner bis zur nächsten Benutzung entfernt</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="154"/>
        <source>&amp;Quota:</source>
        <translation>&amp;Kontingent:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="155"/>
        <source>Archive when i&amp;dle for:</source>
        <translation>Archivieren nach &amp;Ruhezeit:</translation>
    </message>
</context>
<context>
    <name>sb::ui::OutputPane</name>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="53"/>
        <source>Output of the run appears here. Press Ctrl+Return to run the snippet.</source>
        <translation>Hier erscheint die Ausgabe der Ausführung. Strg+Eingabe führt das Snippet aus.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="86"/>
        <source>no run yet</source>
        <translation>noch keine Ausführung</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="87"/>
        <source>Run a snippet to see its outcome, timings and isolation layers.</source>
        <translation>Führen Sie ein Snippet aus, um Ergebnis, Zeiten und Isolationsschichten zu sehen.</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="95"/>
        <source>running…</source>
        <translation>läuft…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="96"/>
        <source>Running in the sandbox…</source>
        <translation>Läuft in der Sandbox…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="96"/>
        <source>Running %1 in the sandbox…</source>
        <translation>%1 läuft in der Sandbox…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="105"/>
        <source>Duration %1 · CPU %2 · Peak RSS %3</source>
        <translation>Dauer %1 · CPU %2 · Spitzen-RSS %3</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="109"/>
        <source>exit %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="111"/>
        <source>signal %1</source>
        <translation>Signal %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="122"/>
        <source>&lt;b&gt;%1&lt;/b&gt; isolation: %2</source>
        <translation>Isolation &lt;b&gt;%1&lt;/b&gt;: %2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="123"/>
        <source>The isolation layers this run really had</source>
        <translation>Die Isolationsschichten, die diese Ausführung tatsächlich hatte</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="153"/>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="158"/>
        <source>[output truncated]</source>
        <translation>[Ausgabe gekürzt]</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="154"/>
        <source>stdout</source>
        <translation>stdout</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="154"/>
        <source>(empty)</source>
        <translation>(leer)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="159"/>
        <source>stderr</source>
        <translation>stderr</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/OutputPane.cpp" line="165"/>
        <source>blocked</source>
        <translation>blockiert</translation>
    </message>
</context>
<context>
    <name>sb::ui::PromotionDialog</name>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="42"/>
        <source>Low risk</source>
        <translation>Geringes Risiko</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="43"/>
        <source>Medium risk</source>
        <translation>Mittleres Risiko</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="44"/>
        <source>High risk</source>
        <translation>Hohes Risiko</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="61"/>
        <source>both modified</source>
        <translation>beidseitig geändert</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="62"/>
        <source>modified and deleted</source>
        <translation>geändert und gelöscht</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="63"/>
        <source>added on both sides</source>
        <translation>beidseitig hinzugefügt</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="64"/>
        <source>type changed</source>
        <translation>Typ geändert</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="88"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="89"/>
        <source>Preview again</source>
        <translation>Erneut prüfen</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="93"/>
        <source>Conflicts</source>
        <translation>Konflikte</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="99"/>
        <source>Approval</source>
        <translation>Freigabe</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="103"/>
        <source>Export…</source>
        <translation>Exportieren…</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="104"/>
        <source>Save patch…</source>
        <translation>Patch speichern…</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="105"/>
        <source>Promote</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="106"/>
        <location filename="../ui/promote/PromotionDialog.cpp" line="626"/>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="109"/>
        <source>Promote %1</source>
        <translation>%1 übernehmen</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="125"/>
        <source>Run the preview again, e.g. after editing the sandbox</source>
        <translation>Die Vorschau erneut ausführen, z. B. nach einer Änderung der Sandbox</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="128"/>
        <source>Into:</source>
        <translation>Nach:</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="156"/>
        <location filename="../ui/promote/PromotionDialog.cpp" line="165"/>
        <location filename="../ui/promote/PromotionDialog.cpp" line="178"/>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="156"/>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="156"/>
        <source>What each side did</source>
        <translation>Was jede Seite tat</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="156"/>
        <source>Resolution</source>
        <translation>Auflösung</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="165"/>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="165"/>
        <source>Lines</source>
        <translation>Zeilen</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="178"/>
        <source>Check</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="178"/>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="181"/>
        <source>Compatibility checks</source>
        <translation>Verträglichkeitsprüfungen</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="187"/>
        <source>who approves</source>
        <translation>wer freigibt</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="189"/>
        <source>why this change may go in</source>
        <translation>warum diese Änderung übernommen werden darf</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="193"/>
        <source>Approved by:</source>
        <translation>Freigegeben von:</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="194"/>
        <source>Note:</source>
        <translation>Notiz:</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="198"/>
        <source>Write the files the promotion would add or change, and its report, to a new or empty folder</source>
        <translation>Die Dateien, die die Übernahme hinzufügen oder ändern würde, samt Bericht in einen neuen oder leeren Ordner schreiben</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="200"/>
        <source>Write the change as a git-style patch</source>
        <translation>Die Änderung als Patch im Git-Format schreiben</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="225"/>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="248"/>
        <source>The promotion is being applied: wait until it ends.</source>
        <translation>Die Übernahme wird angewendet: bitte warten, bis sie endet.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="284"/>
        <source>Another promotion job is running: wait until it ends.</source>
        <translation>Ein anderer Übernahme-Vorgang läuft: bitte warten, bis er endet.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="295"/>
        <source>Previewing %1 → %2…</source>
        <translation>Vorschau %1 → %2…</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="296"/>
        <source>Promoting %1 → %2…</source>
        <translation>Übernahme %1 → %2…</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="297"/>
        <source>Exporting %1 → %2…</source>
        <translation>Export %1 → %2…</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="298"/>
        <source>Writing the patch of %1 → %2…</source>
        <translation>Patch von %1 → %2 wird geschrieben…</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="319"/>
        <source>Preview cancelled: press Preview again to run it.</source>
        <translation>Vorschau abgebrochen: „Erneut prüfen“ startet sie wieder.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="320"/>
        <source>Cancelled: nothing was changed.</source>
        <translation>Abgebrochen: nichts wurde geändert.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="326"/>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="341"/>
        <source>Nothing to promote: %1 already holds every change of %2.</source>
        <translation>Nichts zu übernehmen: %1 enthält bereits jede Änderung von %2.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="348"/>
        <source>Blocked: a compatibility check failed (below). Fix it in the sandbox and preview again.</source>
        <translation>Blockiert: eine Verträglichkeitsprüfung schlug fehl (unten). In der Sandbox beheben und erneut prüfen.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="350"/>
        <source>High risk: name who approves and write a note to promote.</source>
        <translation>Hohes Risiko: zum Übernehmen angeben, wer freigibt, und eine Notiz schreiben.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="352"/>
        <source>Ready to promote.</source>
        <translation>Bereit zur Übernahme.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="357"/>
        <source>Promoted: %1 now holds the change, as checkpoint %2.</source>
        <translation>Übernommen: %1 enthält die Änderung jetzt als Checkpoint %2.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="362"/>
        <source>Nothing to promote: %1 already holds every change.</source>
        <translation>Nichts zu übernehmen: %1 enthält bereits jede Änderung.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="372"/>
        <source>Not promoted: %1</source>
        <translation>Nicht übernommen: %1</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="377"/>
        <source>Exported to %1</source>
        <translation>Exportiert nach %1</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="378"/>
        <source>Patch written to %1</source>
        <translation>Patch geschrieben nach %1</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="391"/>
        <source>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; → &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="392"/>
        <source>Risk: …</source>
        <translation>Risiko: …</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="402"/>
        <source>none (the two share no checkpoint)</source>
        <translation>keiner (die beiden haben keinen gemeinsamen Checkpoint)</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="406"/>
        <source>%1 + unsaved changes</source>
        <translation>%1 + ungesicherte Änderungen</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="408"/>
        <source>Source &lt;b&gt;%1&lt;/b&gt; (%2) → target &lt;b&gt;%3&lt;/b&gt; (%4) · common ancestor %5</source>
        <translation>Quelle &lt;b&gt;%1&lt;/b&gt; (%2) → Ziel &lt;b&gt;%3&lt;/b&gt; (%4) · gemeinsamer Vorfahr %5</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="419"/>
        <source>No risk rule applies.</source>
        <translation>Keine Risikoregel trifft zu.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="420"/>
        <source>Why: %1</source>
        <translation>Warum: %1</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="422"/>
        <source>&lt;b&gt;%1 files&lt;/b&gt; change: %2 added, %3 modified, %4 removed · lines +%5 −%6 · bytes +%7 −%8</source>
        <translation>&lt;b&gt;%1 Dateien&lt;/b&gt; ändern sich: %2 hinzugefügt, %3 geändert, %4 entfernt · Zeilen +%5 −%6 · Bytes +%7 −%8</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="437"/>
        <source>binary</source>
        <translation>binär</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="438"/>
        <source>too large</source>
        <translation>zu groß</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="451"/>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="457"/>
        <source>policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="458"/>
        <source>No policy files to check.</source>
        <translation>Keine Richtliniendateien zu prüfen.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="493"/>
        <source>Unresolved</source>
        <translation>Ungelöst</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="494"/>
        <source>Take source (%1)</source>
        <translation>Quelle nehmen (%1)</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="495"/>
        <source>Take target (%1)</source>
        <translation>Ziel nehmen (%1)</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="522"/>
        <source>Both %1 and %2 changed these paths since their common ancestor. Resolve each: edit the sandbox (e.g. take the target&apos;s version there and redo your part), then press Preview again — or settle a path here by taking the source&apos;s or the target&apos;s version wholesale.</source>
        <translation>Sowohl %1 als auch %2 haben diese Pfade seit ihrem gemeinsamen Vorfahren geändert. Jeden auflösen: die Sandbox bearbeiten (z. B. dort die Fassung des Ziels nehmen und den eigenen Teil neu machen), dann „Erneut prüfen“ drücken — oder einen Pfad hier entscheiden, indem die Fassung der Quelle oder des Ziels ganz genommen wird.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="527"/>
        <source>Conflicts settled</source>
        <translation>Konflikte entschieden</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="528"/>
        <source>Every conflict is settled by the side chosen; the promotion records the choices.</source>
        <translation>Jeder Konflikt ist durch die gewählte Seite entschieden; die Übernahme hält die Wahl fest.</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/promote/PromotionDialog.cpp" line="545"/>
        <source>The diff of this file is not shown: the promotion changes more than %n files.</source>
        <translation>
            <numerusform>Der Diff dieser Datei wird nicht gezeigt: die Übernahme ändert mehr als %n Datei.</numerusform>
            <numerusform>Der Diff dieser Datei wird nicht gezeigt: die Übernahme ändert mehr als %n Dateien.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="548"/>
        <source>Press Preview again to see this file&apos;s diff.</source>
        <translation>„Erneut prüfen“ drücken, um den Diff dieser Datei zu sehen.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="575"/>
        <source>High risk: a name and a note are required to promote.</source>
        <translation>Hohes Risiko: zum Übernehmen sind ein Name und eine Notiz nötig.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="577"/>
        <source>Name who approves.</source>
        <translation>Angeben, wer freigibt.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="579"/>
        <source>Write a note: why this change may go in.</source>
        <translation>Eine Notiz schreiben: warum diese Änderung übernommen werden darf.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="597"/>
        <source>Approval (required: high risk)</source>
        <translation>Freigabe (nötig: hohes Risiko)</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="597"/>
        <source>Approval (optional)</source>
        <translation>Freigabe (optional)</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="600"/>
        <source>The approval is recorded in the audit log.</source>
        <translation>Die Freigabe wird im Prüfprotokoll festgehalten.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="601"/>
        <source>Optional: an approval given here is recorded.</source>
        <translation>Optional: eine hier erteilte Freigabe wird festgehalten.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="619"/>
        <source>Resolve the conflicts first</source>
        <translation>Zuerst die Konflikte auflösen</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="623"/>
        <source>Apply the change to %1, atomically, as a &apos;promote&apos; checkpoint</source>
        <translation>Die Änderung atomar auf %1 anwenden, als Checkpoint „promote“</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="626"/>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="638"/>
        <source>Export the promotion to a new or empty folder</source>
        <translation>Die Übernahme in einen neuen oder leeren Ordner exportieren</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="639"/>
        <source>Save the promotion as a patch</source>
        <translation>Die Übernahme als Patch speichern</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="647"/>
        <source>Patches (*.patch *.diff)</source>
        <translation>Patches (*.patch *.diff)</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="488"/>
        <source>edit the sandbox</source>
        <translation>die Sandbox bearbeiten</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="344"/>
        <source>Blocked by a conflict: see below how to resolve it.</source>
        <translation>Blockiert durch einen Konflikt: unten steht, wie er aufzulösen ist.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="345"/>
        <source>Blocked by %1 conflicts: see below how to resolve them.</source>
        <translation>Blockiert durch %1 Konflikte: unten steht, wie sie aufzulösen sind.</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="519"/>
        <source>A conflict blocks the promotion</source>
        <translation>Ein Konflikt blockiert die Übernahme</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="520"/>
        <source>%1 conflicts block the promotion</source>
        <translation>%1 Konflikte blockieren die Übernahme</translation>
    </message>
    <message>
        <location filename="../ui/promote/PromotionDialog.cpp" line="561"/>
        <source>Press Preview again to see this conflict&apos;s diff.</source>
        <translation>„Erneut prüfen“ drücken, um den Diff dieses Konflikts zu sehen.</translation>
    </message>
</context>
<context>
    <name>sb::ui::PromotionJobRunner</name>
    <message>
        <location filename="../ui/jobs/PromotionJobs.cpp" line="30"/>
        <source>Folder %1: its permissions or presence changed.</source>
        <translation>Ordner %1: seine Rechte oder sein Vorhandensein haben sich geändert.</translation>
    </message>
    <message>
        <location filename="../ui/jobs/PromotionJobs.cpp" line="47"/>
        <source>Binary files differ: %1</source>
        <translation>Binärdateien unterscheiden sich: %1</translation>
    </message>
    <message>
        <location filename="../ui/jobs/PromotionJobs.cpp" line="32"/>
        <location filename="../ui/jobs/PromotionJobs.cpp" line="160"/>
        <source>%1 is too large to show as text.</source>
        <translation>%1 ist zu groß, um als Text gezeigt zu werden.</translation>
    </message>
    <message>
        <location filename="../ui/jobs/PromotionJobs.cpp" line="52"/>
        <source>Only the permissions of %1 changed.</source>
        <translation>Nur die Rechte von %1 haben sich geändert.</translation>
    </message>
</context>
<context>
    <name>sb::ui::RuleSetEditor</name>
    <message>
        <location filename="../ui/rules/RuleSetEditor.cpp" line="153"/>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <location filename="../ui/rules/RuleSetEditor.cpp" line="153"/>
        <source>warning</source>
        <translation>Warnung</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesCharts</name>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="119"/>
        <source>Evaluate or compare to see decisions here</source>
        <translation>Auswerten oder vergleichen, um hier Entscheidungen zu sehen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="133"/>
        <source>Decisions per rule set</source>
        <translation>Entscheidungen je Regelsatz</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="160"/>
        <source>Impact rate per variant (%)</source>
        <translation>Änderungsquote je Variante (%)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="162"/>
        <source>Impact rate</source>
        <translation>Änderungsquote</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="203"/>
        <source>Hits per rule (the %1 with the most of %2)</source>
        <translation>Treffer je Regel (die %1 häufigsten von %2)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="204"/>
        <source>Hits per rule</source>
        <translation>Treffer je Regel</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="251"/>
        <source>Flagged vs. label &apos;%1&apos; (%)</source>
        <translation>Markiert vs. Label „%1“ (%)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="252"/>
        <source>Precision</source>
        <translation>Präzision</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="253"/>
        <source>Recall</source>
        <translation>Trefferquote</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesCharts.cpp" line="228"/>
        <source>Scores of records a rule decided (by tens)</source>
        <translation>Scores der von einer Regel entschiedenen Datensätze (in Zehnern)</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesJobRunner</name>
    <message>
        <location filename="../ui/jobs/RulesJobs.cpp" line="93"/>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesLexer</name>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="178"/>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="179"/>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="180"/>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="181"/>
        <source>String</source>
        <translation>Zeichenkette</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="182"/>
        <source>Number</source>
        <translation>Zahl</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="183"/>
        <source>Punctuation</source>
        <translation>Satzzeichen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="184"/>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="185"/>
        <source>Keyword</source>
        <translation>Schlüsselwort</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="186"/>
        <source>Function</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="187"/>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesLexer.cpp" line="188"/>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
</context>
<context>
    <name>sb::ui::RulesWorkspace</name>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="82"/>
        <source>Open demo</source>
        <translation>Demo öffnen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="83"/>
        <source>Open the demo rule sets (current, variant A, variant B) and the demo transactions</source>
        <translation>Die Demo-Regelsätze (current, Variante A, Variante B) und die Demo-Transaktionen öffnen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="84"/>
        <source>Open…</source>
        <translation>Öffnen…</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="85"/>
        <source>Open a rule set (YAML) in a new tab; the first tab is the baseline</source>
        <translation>Einen Regelsatz (YAML) in einem neuen Tab öffnen; der erste Tab ist die Basis</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="86"/>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="87"/>
        <source>Save the rule set of the current tab</source>
        <translation>Den Regelsatz des aktuellen Tabs speichern</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="88"/>
        <source>Data file…</source>
        <translation>Datendatei…</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="89"/>
        <source>Read a CSV or JSON Lines file as the dataset</source>
        <translation>Eine CSV- oder JSON-Lines-Datei als Datensatz lesen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="90"/>
        <source>Demo data</source>
        <translation>Demo-Daten</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="91"/>
        <source>Use the demo transactions (5,000 card payments with a fraud label)</source>
        <translation>Die Demo-Transaktionen verwenden (5.000 Kartenzahlungen mit Betrugs-Label)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="92"/>
        <source>Evaluate</source>
        <translation>Auswerten</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="93"/>
        <source>Evaluate the current tab&apos;s rule set on the dataset</source>
        <translation>Den Regelsatz des aktuellen Tabs auf dem Datensatz auswerten</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="94"/>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="95"/>
        <source>Compare the first tab (baseline) with every other tab (variants) on the dataset</source>
        <translation>Den ersten Tab (Basis) auf dem Datensatz mit jedem anderen Tab (Varianten) vergleichen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="96"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="97"/>
        <source>Cancel the running job</source>
        <translation>Die laufende Aufgabe abbrechen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="98"/>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="99"/>
        <source>Save the changed decisions of the shown variant as CSV</source>
        <translation>Die geänderten Entscheidungen der gezeigten Variante als CSV speichern</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="100"/>
        <source>Export report…</source>
        <translation>Bericht exportieren…</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="101"/>
        <source>Save the comparison as an HTML report with its charts</source>
        <translation>Den Vergleich als HTML-Bericht mit seinen Diagrammen speichern</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="106"/>
        <source>Import into store…</source>
        <translation>In die Ablage importieren…</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="107"/>
        <source>Import a CSV or JSON Lines file into the store as an immutable snapshot, then use it</source>
        <translation>Eine CSV- oder JSON-Lines-Datei als unveränderlichen Snapshot in die Ablage importieren und dann verwenden</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="108"/>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="118"/>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="113"/>
        <source>Stored snapshots</source>
        <translation>Gespeicherte Snapshots</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="121"/>
        <source>Choose the records to evaluate on: the demo, a file, or a stored snapshot</source>
        <translation>Die Datensätze für die Auswertung wählen: die Demo, eine Datei oder einen gespeicherten Snapshot</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="133"/>
        <source>No dataset</source>
        <translation>Kein Datensatz</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="219"/>
        <source>Filter: record, decision or rule</source>
        <translation>Filter: Datensatz, Entscheidung oder Regel</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="224"/>
        <source>Variant:</source>
        <translation>Variante:</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="229"/>
        <source>Select a record to see why it got its decisions</source>
        <translation>Einen Datensatz wählen, um zu sehen, warum er seine Entscheidungen bekam</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="243"/>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="244"/>
        <source>Changed decisions</source>
        <translation>Geänderte Entscheidungen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="276"/>
        <source>Reading data…</source>
        <translation>Daten werden gelesen…</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="277"/>
        <source>Importing…</source>
        <translation>Wird importiert…</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="278"/>
        <source>Evaluating…</source>
        <translation>Wird ausgewertet…</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="279"/>
        <source>Comparing…</source>
        <translation>Wird verglichen…</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="292"/>
        <source>Dataset: %1 — %2 records, %3 fields</source>
        <translation>Datensatz: %1 — %2 Datensätze, %3 Felder</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="296"/>
        <source>, %1 bad rows skipped (first: line %2: %3)</source>
        <translation>, %1 fehlerhafte Zeilen übersprungen (erste: Zeile %2: %3)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="301"/>
        <source>Data read</source>
        <translation>Daten gelesen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="346"/>
        <source>(none yet: import a file)</source>
        <translation>(noch keine: eine Datei importieren)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="361"/>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="366"/>
        <source>Import dataset</source>
        <translation>Datensatz importieren</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="362"/>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="520"/>
        <source>Data (*.csv *.jsonl *.ndjson);;All files (*)</source>
        <translation>Daten (*.csv *.jsonl *.ndjson);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="367"/>
        <source>Name of the snapshot (letters, digits, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;):</source>
        <translation>Name des Snapshots (Buchstaben, Ziffern, „_“, „-“, „.“):</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="428"/>
        <source>✔ No problems</source>
        <translation>✔ Keine Probleme</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="435"/>
        <source>%1 error(s), %2 warning(s)</source>
        <translation>%1 Fehler, %2 Warnung(en)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="475"/>
        <source>Open rule set</source>
        <translation>Regelsatz öffnen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="476"/>
        <source>Rule sets (*.yaml *.yml);;All files (*)</source>
        <translation>Regelsätze (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="488"/>
        <source>Save rule set</source>
        <translation>Regelsatz speichern</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="489"/>
        <source>Rule sets (*.yaml *.yml)</source>
        <translation>Regelsätze (*.yaml *.yml)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="493"/>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="674"/>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="722"/>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="498"/>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="519"/>
        <source>Open dataset</source>
        <translation>Datensatz öffnen</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="560"/>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2 records: %3 (%4 s)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; auf %2 Datensätzen: %3 (%4 s)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="563"/>
        <source>Evaluated %1</source>
        <translation>%1 ausgewertet</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="568"/>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 changed (%3)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2 geändert (%3)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="572"/>
        <source>Against &lt;b&gt;%1&lt;/b&gt; on %2 records — %3</source>
        <translation>Gegen &lt;b&gt;%1&lt;/b&gt; auf %2 Datensätzen — %3</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/rules/RulesWorkspace.cpp" line="574"/>
        <source>Compared %n variant(s)</source>
        <translation>
            <numerusform>%n Variante verglichen</numerusform>
            <numerusform>%n Varianten verglichen</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="616"/>
        <source>the default</source>
        <translation>die Vorgabe</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="618"/>
        <source>&lt;h3&gt;%1: &lt;span style=&apos;color:#1f4e9e&apos;&gt;%2&lt;/span&gt; (score %3) by %4&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;%1: &lt;span style=&apos;color:#1f4e9e&apos;&gt;%2&lt;/span&gt; (Score %3) durch %4&lt;/h3&gt;</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="633"/>
        <source>disabled</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="634"/>
        <source>error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="635"/>
        <source>matched</source>
        <translation>zutreffend</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="638"/>
        <source> — decided</source>
        <translation> — entschied</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="655"/>
        <source>&lt;h2&gt;Record %1&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Datensatz %1&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="669"/>
        <source>Export changed decisions</source>
        <translation>Geänderte Entscheidungen exportieren</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="670"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="673"/>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="721"/>
        <source>Exported %1</source>
        <translation>%1 exportiert</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="684"/>
        <source>Sandbench rules report</source>
        <translation>Sandbench-Regelbericht</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="685"/>
        <source>&lt;h1&gt;Rules report&lt;/h1&gt;&lt;p&gt;%1&lt;/p&gt;&lt;p&gt;Dataset: %2, %3 records.&lt;/p&gt;</source>
        <translation>&lt;h1&gt;Regelbericht&lt;/h1&gt;&lt;p&gt;%1&lt;/p&gt;&lt;p&gt;Datensatz: %2, %3 Datensätze.&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="689"/>
        <source>&lt;h2&gt;Variants&lt;/h2&gt;&lt;table&gt;&lt;tr&gt;&lt;th&gt;Variant&lt;/th&gt;&lt;th&gt;Changed&lt;/th&gt;&lt;th&gt;Impact rate&lt;/th&gt;&lt;th&gt;Precision&lt;/th&gt;&lt;th&gt;Recall&lt;/th&gt;&lt;/tr&gt;</source>
        <translation>&lt;h2&gt;Varianten&lt;/h2&gt;&lt;table&gt;&lt;tr&gt;&lt;th&gt;Variante&lt;/th&gt;&lt;th&gt;Geändert&lt;/th&gt;&lt;th&gt;Änderungsquote&lt;/th&gt;&lt;th&gt;Präzision&lt;/th&gt;&lt;th&gt;Trefferquote&lt;/th&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="702"/>
        <source>&lt;h2&gt;Charts&lt;/h2&gt;</source>
        <translation>&lt;h2&gt;Diagramme&lt;/h2&gt;</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="717"/>
        <source>Export report</source>
        <translation>Bericht exportieren</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="718"/>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <location filename="../ui/rules/RulesWorkspace.cpp" line="653"/>
        <source>No match: %1</source>
        <translation>Nicht zutreffend: %1</translation>
    </message>
</context>
<context>
    <name>sb::ui::RunHistoryModel</name>
    <message>
        <location filename="../ui/models/RunHistoryModel.cpp" line="49"/>
        <source>exit code %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <location filename="../ui/models/RunHistoryModel.cpp" line="66"/>
        <source>snippet</source>
        <translation>Snippet</translation>
    </message>
    <message>
        <location filename="../ui/models/RunHistoryModel.cpp" line="108"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location filename="../ui/models/RunHistoryModel.cpp" line="109"/>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <location filename="../ui/models/RunHistoryModel.cpp" line="110"/>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <location filename="../ui/models/RunHistoryModel.cpp" line="111"/>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <location filename="../ui/models/RunHistoryModel.cpp" line="112"/>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <location filename="../ui/models/RunHistoryModel.cpp" line="113"/>
        <source>Detail</source>
        <translation>Detail</translation>
    </message>
</context>
<context>
    <name>sb::ui::SandboxListModel</name>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="115"/>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="117"/>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="118"/>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="138"/>
        <source>(production)</source>
        <translation>(Produktion)</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="151"/>
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
        <location filename="../ui/models/SandboxListModel.cpp" line="194"/>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="195"/>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="196"/>
        <source>Created</source>
        <translation>Angelegt</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="197"/>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="200"/>
        <source>Origin</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="38"/>
        <location filename="../ui/models/SandboxListModel.cpp" line="135"/>
        <source>archived</source>
        <translation>archiviert</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="38"/>
        <location filename="../ui/models/SandboxListModel.cpp" line="135"/>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="41"/>
        <source>%1, idle %2 of %3</source>
        <translation>%1, ruht seit %2 von %3</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="42"/>
        <source>%1, idle %2</source>
        <translation>%1, ruht seit %2</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="50"/>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="59"/>
        <source>%1 (sample %2 of it: %3)</source>
        <translation>%1 (Stichprobe %2 davon: %3)</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="62"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="68"/>
        <source>preset %1</source>
        <translation>Vorlage %1</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="69"/>
        <source>%1 · %2 · usage %3 · policy %4 · datasets %5</source>
        <translation>%1 · %2 · belegt %3 · Richtlinie %4 · Datensätze %5</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="71"/>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="72"/>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="145"/>
        <source>%1
Its workspace folder is removed until its next use, which writes its head checkpoint back.</source>
        <translation>%1
Ihr Arbeitsordner ist bis zur nächsten Benutzung entfernt, die ihren letzten Checkpoint zurückschreibt.</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="198"/>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <location filename="../ui/models/SandboxListModel.cpp" line="199"/>
        <source>Usage</source>
        <translation>Belegt</translation>
    </message>
</context>
<context>
    <name>sb::ui::SandboxSettingsDialog</name>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="363"/>
        <source>Sandbox settings</source>
        <translation>Sandbox-Einstellungen</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="365"/>
        <source>The most its workspace may hold: checkpoints, restores and runs are held to it</source>
        <translation>Das Höchste, was ihr Arbeitsbereich fassen darf: Checkpoints, Wiederherstellungen und Läufe halten sich daran</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="375"/>
        <source>Governance of &lt;b&gt;%1&lt;/b&gt;. A change applies from now on and is recorded in the audit log.</source>
        <translation>Verwaltung von &lt;b&gt;%1&lt;/b&gt;. Eine Änderung gilt ab jetzt und wird im Prüfprotokoll festgehalten.</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="380"/>
        <source>&amp;Quota:</source>
        <translation>&amp;Kontingent:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="381"/>
        <source>Archive when i&amp;dle for:</source>
        <translation>Archivieren nach &amp;Ruhezeit:</translation>
    </message>
    <message>
        <location filename="../ui/checkpoints/CheckpointDialogs.cpp" line="360"/>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
</context>
<context>
    <name>sb::ui::Units</name>
    <message>
        <location filename="../ui/models/MetricsChartData.cpp" line="98"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location filename="../ui/models/MetricsChartData.cpp" line="99"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location filename="../ui/models/MetricsChartData.cpp" line="106"/>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <location filename="../ui/models/MetricsChartData.cpp" line="107"/>
        <source>%1 KB</source>
        <translation>%1 KB</translation>
    </message>
</context>
</TS>
