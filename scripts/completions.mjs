// npm run completions: regenerate completions/ from the built command tree (a test fails when
// the committed files fall behind the commands).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const files = { bash: 'completions/pgw.bash', zsh: 'completions/_pgw', fish: 'completions/pgw.fish' };
for (const [shell, file] of Object.entries(files)) {
  const script = execFileSync(process.execPath, ['bin/pgw.js', 'completion', shell], { env: { ...process.env, NO_COLOR: '1' } });
  writeFileSync(file, script);
  console.log(`wrote ${file}`);
}
