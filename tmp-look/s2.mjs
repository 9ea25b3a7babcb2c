import { chromium } from 'playwright';
const B='http://127.0.0.1:4481';
const browser=await chromium.launch({executablePath:'/usr/lib/chromium/chromium-headless-shell'});
const c=await browser.newContext({storageState:'state-390.json',viewport:{width:390,height:844},isMobile:true,hasTouch:true});
const p=await c.newPage(); const out=console.log;
await p.goto(B+'/s/reports/1',{waitUntil:'networkidle'}); await p.waitForTimeout(1000);
const t=await p.locator('main').innerText(); out('R1 title', t.slice(0,120).replace(/\n/g,' | ')); const i=t.indexOf('Visitor subscriptions'); out('R1 visitors:', t.slice(i,i+250));
const j=t.indexOf('Time zone',i); out('R1 after tz:', t.slice(t.indexOf('Australia/',j), t.indexOf('Australia/',j)+10), '...', t.slice(t.lastIndexOf('Pacific/'), t.lastIndexOf('Pacific/')+1200).replace(/\n/g,' | '));
const sched=p.getByText('Send by mail').first(); await sched.scrollIntoViewIfNeeded(); await p.screenshot({path:'/tmp/look/sched-390.png'});
// try save schedule with defaults
await p.getByRole('button',{name:'Save schedule'}).click(); await p.waitForTimeout(1500);
await p.screenshot({path:'/tmp/look/sched-save-empty-390.png'});
const t2=await p.locator('main').innerText(); const k=t2.indexOf('Send by mail'); out('AFTER SAVE1:', t2.slice(k,k+300).replace(/\n/g,' | '), '...', t2.slice(t2.lastIndexOf('Pacific/'), t2.lastIndexOf('Pacific/')+900).replace(/\n/g,' | '));
const inputs=await p.locator('main input, main textarea').evaluateAll(es=>es.map(e=>`${e.type}:${e.name||e.id}:${e.getAttribute('aria-label')||''}:${e.labels?.[0]?.textContent||''}`)); out('INPUTS', inputs.join(' || '));
await browser.close();
