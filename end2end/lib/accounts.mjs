// Demo accounts of the running portal: scripts/e2e.sh saves what `seed-demo` printed and
// passes the file in AP_E2E_ACCOUNTS.
import { readFileSync } from 'node:fs';

export function demoPassword(login) {
  const file = process.env.AP_E2E_ACCOUNTS;
  if (!file) throw new Error('AP_E2E_ACCOUNTS is not set: run the browser tests through scripts/e2e.sh');
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`Konto angelegt: Login ${login}, Passwort `));
  if (!line) throw new Error(`seed-demo printed no password for ${login}`);
  return line.split('Passwort ')[1].split(' ')[0];
}

/** Signs in through the login form, as a user would. */
export async function logIn(page, login) {
  await page.goto('/login');
  await page.waitForURL('**/api/auth/login');
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Passwort').fill(demoPassword(login));
  await page.getByRole('button', { name: 'Anmelden' }).click();
}
