import { chromium } from 'playwright';
const B='http://127.0.0.1:4481';
const browser=await chromium.launch({executablePath:'/usr/lib/chromium/chromium-headless-shell'});
const out=console.log;
for (const w of [390,1280]){
const c=await browser.newContext(w===390?{storageState:'state-390.json',viewport:{width:390,height:844},isMobile:true,hasTouch:true}:{storageState:'state-1280.json',viewport:{width:1280,height:900}});
const p=await c.newPage();
await p.goto(B+'/s/audit',{waitUntil:'networkidle'});
out(w,'AUDIT nav', (await p.locator('nav a, header a').allInnerTexts()).join('|'));
if(w===390){
 await p.getByRole('button',{name:'Check integrity'}).click(); await p.waitForTimeout(1500);
 const t=await p.locator('main').innerText(); const i=t.indexOf('Check integrity'); out('INTEGRITY:', t.slice(i,i+300).replace(/\n/g,' | '));
 await p.screenshot({path:'/tmp/look/audit-integrity-390.png'});
 const [dl]=await Promise.all([p.waitForEvent('download',{timeout:8000}).catch(()=>null), p.getByRole('button',{name:'Export CSV'}).click()]);
 out('CSV download:', dl? dl.suggestedFilename():'none'); if(dl){const pth=await dl.path(); const fs=await import('fs'); out(fs.readFileSync(pth,'utf8').split('\n').slice(0,3).join('\n'));}
 await p.goto(B+'/s/audit?deviceId=3',{waitUntil:'networkidle'}); await p.waitForTimeout(800);
 await p.screenshot({path:'/tmp/look/device-history-390.png',fullPage:true});
 const t2=await p.locator('main').innerText(); out('DEVHIST:', t2.slice(t2.indexOf('Export CSV'), t2.indexOf('Export CSV')+500).replace(/\n/g,' | '));
}
await p.goto(B+'/s/sensor-data/explore/00:1A:2B:3C:4D:03_WS2001_1300_0_1',{waitUntil:'networkidle'}); await p.waitForTimeout(2500);
await p.screenshot({path:`/tmp/look/explore-${w}.png`,fullPage:true});
const o=await p.evaluate(()=>document.documentElement.scrollWidth); out(w,'explore sw',o);
const tx=await p.locator('main').innerText(); out(w,'EXPLORE:', tx.replace(/\n/g,' | ').slice(0,900));
out(w,'EXPLORE BTN', (await p.locator('main').getByRole('button').allInnerTexts()).join(' | '));
await c.close();}
await browser.close();
